"""torch.fft, each constraint violated once."""
import torch


def case_fft_dim():
    x = torch.zeros(3, 4)
    # expect-error@+1: fft_c1
    torch.fft.fft(x, dim=2)


def case_hfft_no_axis():
    x = torch.zeros(())
    # expect-error@+1: hfft_c5
    torch.fft.hfft(x)


def case_ihfft_dim():
    x = torch.zeros(())
    # a 0-d input wraps dims as a 1-d one: only -1 and 0 are in range
    # expect-error@+1: ihfft_c1
    torch.fft.ihfft(x, dim=1)


def case_fft_empty_axis():
    x = torch.zeros(3, 0)
    # expect-error@+1: fft_c2
    torch.fft.fft(x)


def case_rfft_zero_points():
    x = torch.zeros(3, 4)
    # expect-error@+1: rfft_c2
    torch.fft.rfft(x, n=0)


def case_irfft_one_bin():
    x = torch.zeros(4, 1)
    # the default length 2 * (1 - 1) is 0
    # expect-error@+1: irfft_c2
    torch.fft.irfft(x)


def case_fft_pad_empty():
    x = torch.zeros(0, 4)
    # padding the last axis to 8 copies an input with an empty axis
    # expect-error@+1: fft_c4
    torch.fft.fft(x, n=8)


def case_ifft_norm():
    x = torch.zeros(3, 4)
    # expect-error@+1: ifft_c3
    torch.fft.ifft(x, norm="unitary")


def case_fft2_one_axis():
    x = torch.zeros(5)
    # expect-error@+1: fft2_c1
    torch.fft.fft2(x)


def case_fftn_repeated_dim():
    x = torch.zeros(3, 4)
    # expect-error@+1: fftn_c2
    torch.fft.fftn(x, dim=(0, -2))


def case_fftn_s_and_dim():
    x = torch.zeros(3, 4)
    # expect-error@+1: fftn_c3
    torch.fft.fftn(x, s=(4, 4), dim=(0,))


def case_rfftn_long_s():
    x = torch.zeros(3, 4)
    # expect-error@+1: rfftn_c4
    torch.fft.rfftn(x, s=(2, 2, 2))


def case_ifftn_empty_axis():
    x = torch.zeros(3, 0)
    # expect-error@+1: ifftn_c5
    torch.fft.ifftn(x)


def case_fftn_scalar():
    x = torch.zeros(())
    # expect-error@+1: fftn_c6
    torch.fft.fftn(x)


def case_rfftn_nothing():
    x = torch.zeros(3, 4)
    # expect-error@+1: rfftn_c6
    torch.fft.rfftn(x, dim=())


def case_irfftn_one_bin():
    x = torch.zeros(3, 1)
    # expect-error@+1: irfftn_c7
    torch.fft.irfftn(x)


def case_irfft2_norm():
    x = torch.zeros(3, 4)
    # expect-error@+1: irfft2_c8
    torch.fft.irfft2(x, norm="none")


def case_rfftn_pad_empty():
    x = torch.zeros(3, 4, 0)
    # expect-error@+1: rfftn_c9
    torch.fft.rfftn(x, s=(5, 4), dim=(0, 1))


def case_fftshift_dim():
    x = torch.zeros(3, 4)
    # expect-error@+1: fftshift_c1
    torch.fft.fftshift(x, dim=2)


def case_ifftshift_no_axis():
    x = torch.zeros(3, 4)
    # expect-error@+1: ifftshift_c2
    torch.fft.ifftshift(x, dim=())


def case_fftfreq_negative():
    # expect-error@+1: fftfreq_c1
    torch.fft.fftfreq(-1)


def case_rfftfreq_negative():
    # expect-error@+1: rfftfreq_c1
    torch.fft.rfftfreq(-4)


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
