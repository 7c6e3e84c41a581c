// torchvision datasets and transforms: the sample a dataset gives after its
// transform pipeline, batched by a DataLoader (gradual/interp_vision.cpp).
#include <gtest/gtest.h>

#include "tests/analysis/analysis_fixture.h"

namespace gshape::testing {
namespace {

using gradual::Outcome;

std::string mnist_program(const std::string& transform, const std::string& model_line) {
  return "import torch\n"
         "import torch.nn as nn\n"
         "from torchvision import datasets, transforms\n"
         "transform = " + transform + "\n"
         "train = datasets.MNIST('../data', train=True, download=True, transform=transform)\n"
         "loader = torch.utils.data.DataLoader(train, batch_size=64, shuffle=True)\n"
         "model = " + model_line + "\n"
         "for data, target in loader:\n"
         "    batch = data  # batch\n"
         "    labels = target  # labels\n"
         "    out = model(data.view(data.size(0), -1))  # call\n";
}

TEST(Vision, MnistWithToTensorGivesGreyBatches) {
  std::string src = mnist_program("transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])",
                                  "nn.Linear(784, 10)");
  Analysed a(src);
  // 60,000 training images in batches of 64: full batches, and a last one of 32
  EXPECT_EQ(a.shape(line_of(src, "# batch"), "batch"), "[64, 1, 28, 28] | [32, 1, 28, 28]");
  EXPECT_EQ(a.shape(line_of(src, "# labels"), "labels"), "[64] | [32]");
  EXPECT_EQ(a.worst(line_of(src, "# call"), "linear_c1"), Outcome::Proven) << a.dump();
}

TEST(Vision, AWrongInputSizeIsAnError) {
  std::string src = mnist_program("transforms.ToTensor()", "nn.Linear(28, 10)");
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# call"), "linear_c1"), Outcome::Error) << a.dump();
}

TEST(Vision, CropsResizeAndPaddingChangeTheImageSize) {
  const std::string src =
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "t1 = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.RandomHorizontalFlip(),\n"
      "                         transforms.ToTensor()])\n"
      "t2 = transforms.Compose([transforms.Resize(64), transforms.Pad((1, 2)), transforms.Grayscale(), transforms.ToTensor()])\n"
      "t3 = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor()])\n"
      "t4 = transforms.Compose([transforms.Resize((20, 30)), transforms.PILToTensor()])\n"
      "a = datasets.CIFAR10('d', train=False, transform=t1)[0][0]  # a\n"
      "b = datasets.CIFAR10('d', transform=t2)[0][0]  # b\n"
      "c = datasets.ImageFolder('d', transform=t3)[0][0]  # c\n"
      "d = datasets.FakeData(size=10, image_size=(1, 8, 8), transform=t4)[0][0]  # d\n"
      "n = torch.zeros(len(datasets.CIFAR10('d', train=False)))  # n\n"
      "m = torch.zeros(len(datasets.SVHN('d', split='extra')))  # m\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# a"), "a"), "[3, 32, 32]");
  // Resize(64) of 32x32 is 64x64; Pad((1, 2)) adds 1 left and right, 2 top and bottom
  EXPECT_EQ(a.shape(line_of(src, "# b"), "b"), "[1, 68, 66]");
  EXPECT_EQ(a.shape(line_of(src, "# c"), "c"), "[3, 224, 224]");
  EXPECT_EQ(a.shape(line_of(src, "# d"), "d"), "[1, 20, 30]");
  EXPECT_EQ(a.shape(line_of(src, "# n"), "n"), "[10000]");
  EXPECT_EQ(a.shape(line_of(src, "# m"), "m"), "[531131]");
}

TEST(Vision, WhatIsNotModelledStaysUnknown) {
  const std::string src =
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "no_tensor = datasets.MNIST('d')[0][0]  # pil\n"
      "lam = datasets.MNIST('d', transform=transforms.Compose([transforms.Lambda(lambda x: x), transforms.ToTensor()]))\n"
      "x = lam[0][0]  # lambda\n"
      "bad = datasets.MNIST('d', transform=transforms.Normalize((0.5,), (0.5,)))[0][0]  # normalize\n"
      "y = x @ torch.zeros(3, 3)  # use\n";
  Analysed a(src);
  // a PIL image is not a tensor (the Lambda receives one: what it returns is
  // not known to be an image); Normalize needs a tensor
  EXPECT_EQ(a.shape(line_of(src, "# lambda"), "x"), "");
  EXPECT_EQ(a.count(Outcome::Error), 0u) << a.dump();
}

TEST(Vision, SamplesOfOneDatasetDoNotShareTheirVaryingSizes) {
  // ImageFolder's images and any dataset's targets differ from one index to
  // the next: two samples are not assumed equal
  const std::string src =
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "folder = datasets.ImageFolder('d', transform=transforms.ToTensor())\n"
      "x = folder[0][0]  # raw\n"
      "y = folder[0][0] + folder[1][0]  # add\n"
      "m = datasets.MNIST('d', transform=transforms.ToTensor())\n"
      "z = torch.zeros(m[0][1]) + torch.zeros(m[1][1])  # targets\n"
      "capped = datasets.CIFAR10('d', transform=transforms.Compose([transforms.Resize(64, max_size=80),\n"
      "                                                             transforms.ToTensor()]))[0][0]  # capped\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# raw"), "x"), "");
  EXPECT_NE(a.worst(line_of(src, "# targets"), "broadcast_c1"), Outcome::Proven) << a.dump();
  EXPECT_EQ(a.shape(line_of(src, "# capped"), "capped"), "");
}

TEST(Vision, ALambdaIsAnalysedOnTheImageItReceives) {
  // examples/mnist_forward_forward: the images are flattened by the transform
  const std::string src =
      "import torch\n"
      "from torchvision.datasets import MNIST\n"
      "from torchvision.transforms import Compose, ToTensor, Normalize, Lambda\n"
      "transform = Compose([ToTensor(), Normalize((0.1307,), (0.3081,)), Lambda(lambda x: torch.flatten(x))])\n"
      "x, y = next(iter(torch.utils.data.DataLoader(MNIST('d', transform=transform), batch_size=50)))  # first\n"
      "z = x  # batch\n"
      "class Half:\n"
      "    def __call__(self, img):\n"
      "        return img[:, ::2, ::2]\n"
      "h = MNIST('d', transform=Compose([ToTensor(), Half(), Normalize((0.5,), (0.5,))]))[0][0]  # half\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# batch"), "z"), "[50, 784]");
  EXPECT_EQ(a.shape(line_of(src, "# half"), "h"), "[1, 14, 14]");
}

TEST(Vision, LoaderKeywordsFromADictJoinedOverBranches) {
  const std::string src =
      "import sys\n"
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "kwargs = {'batch_size': 100}\n"
      "if len(sys.argv) > 1:\n"
      "    kwargs.update({'num_workers': 1, 'pin_memory': True, 'shuffle': True})\n"
      "ds = datasets.FashionMNIST('d', train=False, transform=transforms.ToTensor())\n"
      "for x, y in torch.utils.data.DataLoader(ds, **kwargs):\n"
      "    z = x  # batch\n";
  Analysed a(src);
  EXPECT_EQ(a.shape(line_of(src, "# batch"), "z"), "[100, 1, 28, 28]");
}

TEST(Vision, LoaderKeywordsTheBranchesDisagreeOnAreNotGuessed) {
  const std::string src =
      "import sys\n"
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "kwargs = {'batch_size': 100}\n"
      "if len(sys.argv) > 1:\n"
      "    kwargs = {'batch_size': 500}\n"
      "ds = datasets.MNIST('d', transform=transforms.ToTensor())\n"
      "for x, y in torch.utils.data.DataLoader(ds, **kwargs):\n"
      "    z = x  # batch\n";
  Analysed a(src);
  const std::string shapes = a.shape(line_of(src, "# batch"), "z");
  EXPECT_EQ(shapes.find("[100, 1, 28, 28]"), std::string::npos) << shapes;
  EXPECT_EQ(shapes.find("[500, 1, 28, 28]"), std::string::npos) << shapes;
}

TEST(Vision, TheEnumerateIndexOfTheLastBatchComesAfterTheFullOnes) {
  // examples/vae: the first batch is compared at batch_size; the partial last
  // batch is never batch 0 when there are full batches
  const std::string src =
      "import torch\n"
      "from torchvision import datasets, transforms\n"
      "ds = datasets.MNIST('d', train=False, transform=transforms.ToTensor())\n"
      "for i, (data, _) in enumerate(torch.utils.data.DataLoader(ds, batch_size=128)):\n"
      "    if i == 0:\n"
      "        v = data.view(128, 784)  # view\n"
      "    w = data.view(128, 784)  # always\n";
  Analysed a(src);
  EXPECT_EQ(a.worst(line_of(src, "# view"), "view_c5"), Outcome::Proven) << a.dump();
  // outside the `if`, the last batch of 10000 % 128 = 16 does reach the view
  EXPECT_EQ(a.worst(line_of(src, "# always"), "view_c5"), Outcome::Warning) << a.dump();
}

}  // namespace
}  // namespace gshape::testing
