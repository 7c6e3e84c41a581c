"""torch.fft: every constraint of the group in a form where it holds. Each
result is reshaped to an element count only the right shape has (a view
would be a run-time check: a transform's result is not known to be
contiguous)."""
import torch


def case_one_dim():
    x = torch.randn(4, 10)
    spectrum = torch.fft.fft(x)                          # [4, 10]
    half = torch.fft.rfft(x)                             # [4, 6]
    padded = torch.fft.ifft(x, n=16, dim=0, norm="ortho")  # [16, 10]
    back = torch.fft.irfft(half)                         # [4, 10]: 2 * (6 - 1)
    odd = torch.fft.irfft(half, n=11)                    # [4, 11]
    herm = torch.fft.hfft(x[:, :3])                      # [4, 4]
    ihalf = torch.fft.ihfft(x, dim=-1)                   # [4, 6]
    return (spectrum.reshape(40), half.reshape(24), padded.reshape(160), back.reshape(40), odd.reshape(44),
            herm.reshape(16), ihalf.reshape(24), torch.fft.fft(torch.zeros(0, 3), n=5, dim=0).reshape(15))


def case_two_and_n_dims():
    img = torch.randn(2, 3, 8, 6)
    f2 = torch.fft.fft2(img)                             # [2, 3, 8, 6]
    r2 = torch.fft.rfft2(img)                            # [2, 3, 8, 4]
    i2 = torch.fft.irfft2(r2)                            # [2, 3, 8, 6]
    sized = torch.fft.fftn(img, s=(4, -1))               # [2, 3, 4, 6]
    picked = torch.fft.rfftn(img, s=(5, 7), dim=(1, 3))  # [2, 5, 8, 4]
    every = torch.fft.ifftn(img)                         # [2, 3, 8, 6]
    whole = torch.fft.rfftn(img)                         # [2, 3, 8, 4]
    real = torch.fft.irfftn(whole, s=(2, 3, 8, 6))       # [2, 3, 8, 6]
    herm = torch.fft.hfftn(img, dim=(0, 2))              # [2, 3, 14, 6]
    ih = torch.fft.ihfft2(img, dim=(0, 1))               # [2, 2, 8, 6]
    h2 = torch.fft.hfft2(img, s=(3, 5))                  # [2, 3, 3, 5]
    none = torch.fft.fftn(img, dim=())                   # nothing transformed
    return (f2.reshape(288), r2.reshape(192), i2.reshape(288), sized.reshape(144), picked.reshape(320),
            every.reshape(288), whole.reshape(192), real.reshape(288), herm.reshape(504), ih.reshape(192),
            h2.reshape(90), none.reshape(288), torch.fft.ifft2(img, norm="forward").reshape(288))


def case_shift_and_frequencies():
    x = torch.randn(3, 5)
    centred = torch.fft.fftshift(x)                      # every axis
    rows = torch.fft.ifftshift(x, dim=0)
    both = torch.fft.fftshift(torch.zeros(0, 2), dim=(1, -1))
    freqs = torch.fft.fftfreq(5, d=0.1)                  # [5]
    half = torch.fft.rfftfreq(8)                         # [5]
    odd = torch.fft.rfftfreq(-1)                         # [1]: 1.13 divides -1 by 2 towards 0
    return (centred.reshape(15), rows.reshape(15), both.reshape(0), freqs.reshape(5), half.reshape(5),
            odd.reshape(1), torch.fft.fftfreq(0))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
