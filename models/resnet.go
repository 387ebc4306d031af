package models

import (
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
)

func init() {
	register(&Spec{Name: "resnet18", New: func() nn.Module { return NewResNet18(1000) }, Tol: 1e-3})
}

// BasicBlock is torchvision's ResNet basic block: two 3x3 convolutions
// with batch norm, and a shortcut (downsampled when the shape changes).
type BasicBlock struct {
	nn.Base
	Conv1, Conv2 *nn.Conv2d
	BN1, BN2     *nn.BatchNorm2d
	ReLU         *nn.ReLU
	Downsample   *nn.Sequential // nil when the shortcut is the identity
}

func inplaceReLU() *nn.ReLU {
	r := nn.NewReLU()
	r.Inplace = true
	return r
}

// NewBasicBlock returns a block from in to out channels with the given
// stride; a stride other than 1 or a change of width adds the 1x1
// downsampling shortcut.
func NewBasicBlock(in, out, stride int) *BasicBlock {
	b := &BasicBlock{}
	b.Init(b, "BasicBlock")
	b.Conv1 = nn.RegisterModule(&b.Base, "conv1", nn.NewConv2d(in, out, 3, nn.Stride(stride), nn.Padding(1), nn.Bias(false)))
	b.BN1 = nn.RegisterModule(&b.Base, "bn1", nn.NewBatchNorm2d(out))
	b.ReLU = nn.RegisterModule(&b.Base, "relu", inplaceReLU())
	b.Conv2 = nn.RegisterModule(&b.Base, "conv2", nn.NewConv2d(out, out, 3, nn.Stride(1), nn.Padding(1), nn.Bias(false)))
	b.BN2 = nn.RegisterModule(&b.Base, "bn2", nn.NewBatchNorm2d(out))
	if stride != 1 || in != out {
		b.Downsample = nn.RegisterModule(&b.Base, "downsample", nn.NewSequential(
			nn.NewConv2d(in, out, 1, nn.Stride(stride), nn.Bias(false)),
			nn.NewBatchNorm2d(out)))
	}
	return b
}

// Forward is torchvision's BasicBlock.forward.
func (b *BasicBlock) Forward(x nn.Value) nn.Value {
	identity := x
	out := b.ReLU.Call(b.BN1.Call(b.Conv1.Call(x)))
	out = b.BN2.Call(b.Conv2.Call(out))
	if b.Downsample != nil { // a Go hyper-parameter: specialized away by tracing
		identity = b.Downsample.Call(x)
	}
	out = out.Add(identity) // out += identity
	return b.ReLU.Call(out)
}

// ResNet is torchvision's ResNet with basic blocks.
type ResNet struct {
	nn.Base
	Conv1                          *nn.Conv2d
	BN1                            *nn.BatchNorm2d
	ReLU                           *nn.ReLU
	MaxPool                        *nn.MaxPool2d
	Layer1, Layer2, Layer3, Layer4 *nn.Sequential
	AvgPool                        *nn.AdaptiveAvgPool2d
	FC                             *nn.Linear
}

// NewResNet18 returns torchvision's resnet18 (BasicBlock x [2, 2, 2, 2])
// with fresh weights and the given number of classes.
func NewResNet18(classes int) *ResNet {
	m := &ResNet{}
	m.Init(m, "ResNet")
	m.Conv1 = nn.RegisterModule(&m.Base, "conv1", nn.NewConv2d(3, 64, 7, nn.Stride(2), nn.Padding(3), nn.Bias(false)))
	m.BN1 = nn.RegisterModule(&m.Base, "bn1", nn.NewBatchNorm2d(64))
	m.ReLU = nn.RegisterModule(&m.Base, "relu", inplaceReLU())
	m.MaxPool = nn.RegisterModule(&m.Base, "maxpool", nn.NewMaxPool2d(3, nn.Stride(2), nn.Padding(1)))
	layer := func(name string, in, out, stride int) *nn.Sequential {
		return nn.RegisterModule(&m.Base, name, nn.NewSequential(NewBasicBlock(in, out, stride), NewBasicBlock(out, out, 1)))
	}
	m.Layer1 = layer("layer1", 64, 64, 1)
	m.Layer2 = layer("layer2", 64, 128, 2)
	m.Layer3 = layer("layer3", 128, 256, 2)
	m.Layer4 = layer("layer4", 256, 512, 2)
	m.AvgPool = nn.RegisterModule(&m.Base, "avgpool", nn.NewAdaptiveAvgPool2d([]int{1, 1}))
	m.FC = nn.RegisterModule(&m.Base, "fc", nn.NewLinear(512, classes, true))
	return m
}

// Forward is torchvision's ResNet._forward_impl.
func (m *ResNet) Forward(x nn.Value) nn.Value {
	x = m.MaxPool.Call(m.ReLU.Call(m.BN1.Call(m.Conv1.Call(x))))
	x = m.Layer4.Call(m.Layer3.Call(m.Layer2.Call(m.Layer1.Call(x))))
	x = F.Flatten(m.AvgPool.Call(x), 1, -1)
	return m.FC.Call(x)
}
