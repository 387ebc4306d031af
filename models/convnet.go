package models

import (
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
)

func init() {
	register(&Spec{Name: "convnet", New: func() nn.Module { return NewConvNet() },
		Dynamic: func() export.Dims { return export.Dims{"x": {0: export.Dim("batch", 2, export.Inf)}} }})
}

// ConvNet is the zoo's convnet: two conv + batch norm + ReLU stages, max
// pooling, global average pooling and a linear classifier.
type ConvNet struct {
	nn.Base
	Conv1 *nn.Conv2d
	BN1   *nn.BatchNorm2d
	Conv2 *nn.Conv2d
	BN2   *nn.BatchNorm2d
	Pool  *nn.MaxPool2d
	GAP   *nn.AdaptiveAvgPool2d
	FC    *nn.Linear
}

// NewConvNet returns the model with fresh weights.
func NewConvNet() *ConvNet {
	m := &ConvNet{}
	m.Init(m, "ConvNet")
	m.Conv1 = nn.RegisterModule(&m.Base, "conv1", nn.NewConv2d(3, 8, 3, nn.Padding(1)))
	m.BN1 = nn.RegisterModule(&m.Base, "bn1", nn.NewBatchNorm2d(8))
	m.Conv2 = nn.RegisterModule(&m.Base, "conv2", nn.NewConv2d(8, 16, 3, nn.Stride(2), nn.Padding(1)))
	m.BN2 = nn.RegisterModule(&m.Base, "bn2", nn.NewBatchNorm2d(16))
	m.Pool = nn.RegisterModule(&m.Base, "pool", nn.NewMaxPool2d(2))
	m.GAP = nn.RegisterModule(&m.Base, "gap", nn.NewAdaptiveAvgPool2d(1))
	m.FC = nn.RegisterModule(&m.Base, "fc", nn.NewLinear(16, 10, true))
	return m
}

// Forward is the Python forward line by line.
func (m *ConvNet) Forward(x nn.Value) nn.Value {
	x = F.ReLU(m.BN1.Call(m.Conv1.Call(x)))
	x = F.ReLU(m.BN2.Call(m.Conv2.Call(x)))
	x = m.Pool.Call(x)
	x = m.GAP.Call(x)
	x = F.Flatten(x, 1, -1)
	return m.FC.Call(x)
}
