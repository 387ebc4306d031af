package functional_test

import (
	"testing"

	"github.com/gofx/gofx/models"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ConvNet is the convnet model of shared/models, written with the layers
// and functions of nn and nn/functional.
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

func (m *ConvNet) Forward(x nn.Value) nn.Value {
	x = F.ReLU(m.BN1.Call(m.Conv1.Call(x)))
	x = F.ReLU(m.BN2.Call(m.Conv2.Call(x)))
	x = m.Pool.Call(x)
	x = m.GAP.Call(x)
	x = F.Flatten(x, 1, -1)
	return m.FC.Call(x)
}

func TestConvNetModel(t *testing.T) {
	m := nn.Eval(NewConvNet())
	require.NoError(t, nn.Load(m, "../../testdata/models/convnet.state_dict.pt", nn.LoadOptions{}))
	io, err := models.ReadIO("../../testdata/models/convnet.io.json")
	require.NoError(t, err)
	require.NotEmpty(t, io.Cases)
	for _, c := range io.Cases {
		out, err := nn.Run(m, c.Inputs...)
		require.NoError(t, err)
		assert.True(t, tensor.AllClose(out.Tensor(), c.Outputs[0].Tensor(), 1e-4, 1e-5, false))
	}
	assert.Equal(t, `ConvNet(
  (conv1): Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
  (bn1): BatchNorm2d(8, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (conv2): Conv2d(8, 16, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))
  (bn2): BatchNorm2d(16, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)
  (pool): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
  (gap): AdaptiveAvgPool2d(output_size=1)
  (fc): Linear(in_features=16, out_features=10, bias=True)
)`, nn.Repr(m))
}
