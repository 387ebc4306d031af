package models

import (
	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	F "github.com/gofx/gofx/nn/functional"
	"github.com/gofx/gofx/tensor"
)

func init() {
	register(&Spec{Name: "mlp", New: func() nn.Module { return NewMLP() },
		Dynamic: func() export.Dims { return export.Dims{"input": {0: export.Dim("batch", 2, export.Inf)}} }})
	register(&Spec{Name: "fx_doc_mymodule", New: func() nn.Module { return NewFxDocMyModule() }})
	register(&Spec{Name: "export_doc_f", New: func() nn.Module { return NewExportDocF() }})
	register(&Spec{Name: "export_doc_conv", New: func() nn.Module { return NewExportDocConv() }})
	register(&Spec{Name: "export_doc_branches", New: func() nn.Module { return NewExportDocBranches() },
		Dynamic: func() export.Dims {
			batch := export.Dim("batch", 2, export.Inf)
			return export.Dims{"x1": {0: batch}, "x2": {0: batch}}
		}})
	register(&Spec{Name: "export_doc_mutation", New: func() nn.Module { return NewExportDocMutation() },
		Notes: "torch.fx 1.13 runs `self.my_buffer2.add_(1.0)` eagerly at trace time (buffers are not proxied), " +
			"so its graph has no add_ node and the traced module neither mutates the buffer nor sees the increment; " +
			"gofx records the in-place call (call_method add_ on get_attr my_buffer2), so the trace mutates the buffer " +
			"as eager does: call_method 1 instead of 0, total 11 instead of 10"})
}

// NewMLP returns mlp: Sequential(Linear(16, 32), ReLU(), Linear(32, 10)).
func NewMLP() *nn.Sequential {
	return nn.NewSequential(nn.NewLinear(16, 32, true), nn.NewReLU(), nn.NewLinear(32, 10, true))
}

// FxDocMyModule is torch.fx's documentation example (the print_tabular
// section): topk(sum(linear(x + linear.weight).relu(), dim=-1), 3).
type FxDocMyModule struct {
	nn.Base
	Param  *nn.Parameter
	Linear *nn.Linear
}

// NewFxDocMyModule returns the module with fresh weights.
func NewFxDocMyModule() *FxDocMyModule {
	m := &FxDocMyModule{}
	m.Init(m, "FxDocMyModule")
	p, err := nn.Uniform(1, 3, 4)
	m.Fail(err)
	m.Param = m.RegisterParameter("param", p)
	m.Linear = nn.RegisterModule(&m.Base, "linear", nn.NewLinear(4, 5, true))
	return m
}

// Forward is torch.topk(torch.sum(self.linear(x + self.linear.weight).relu(), dim=-1), 3).
func (m *FxDocMyModule) Forward(x nn.Value) nn.Value {
	h := m.Linear.Call(x.Add(m.Linear.Weight.Value())).Relu()
	return F.TopK(F.Sum(h, []int{-1}, false), 3, -1, true, true)
}

// ExportDocF is f(x, y) = sin(x) + cos(y) from the torch.export
// documentation, as a module.
type ExportDocF struct{ nn.Base }

// NewExportDocF returns the module.
func NewExportDocF() *ExportDocF {
	m := &ExportDocF{}
	m.Init(m, "ExportDocF")
	return m
}

// ArgNames names the inputs x and y.
func (m *ExportDocF) ArgNames() []string { return []string{"x", "y"} }

// Forward is torch.sin(x) + torch.cos(y).
func (m *ExportDocF) Forward(x, y nn.Value) nn.Value {
	return F.Sin(x).Add(F.Cos(y))
}

// ExportDocBranches is the torch.export documentation example with two
// branches and a buffer.
type ExportDocBranches struct {
	nn.Base
	Buffer           *nn.Buffer
	Branch1, Branch2 *nn.Sequential
}

// NewExportDocBranches returns the module with fresh weights.
func NewExportDocBranches() *ExportDocBranches {
	m := &ExportDocBranches{}
	m.Init(m, "ExportDocBranches")
	m.Branch1 = nn.RegisterModule(&m.Base, "branch1", nn.NewSequential(nn.NewLinear(64, 32, true), nn.NewReLU()))
	m.Branch2 = nn.RegisterModule(&m.Base, "branch2", nn.NewSequential(nn.NewLinear(128, 64, true), nn.NewReLU()))
	ones, err := tensor.Ones(tensor.Float32, 32)
	m.Fail(err)
	m.Buffer = m.RegisterBuffer("buffer", ones, true)
	return m
}

// ArgNames names the inputs x1 and x2.
func (m *ExportDocBranches) ArgNames() []string { return []string{"x1", "x2"} }

// Forward returns (branch1(x1) + buffer, branch2(x2)).
func (m *ExportDocBranches) Forward(x1, x2 nn.Value) nn.Value {
	out1 := m.Branch1.Call(x1)
	out2 := m.Branch2.Call(x2)
	return nn.Tuple(out1.Add(m.Buffer.Value()), out2)
}

// ExportDocMutation is the torch.export documentation example with a
// parameter and two buffers, one mutated by Forward.
type ExportDocMutation struct {
	nn.Base
	MyParameter          *nn.Parameter
	MyBuffer1, MyBuffer2 *nn.Buffer
}

// NewExportDocMutation returns the module (parameter 2, buffers 3 and 4).
func NewExportDocMutation() *ExportDocMutation {
	m := &ExportDocMutation{}
	m.Init(m, "ExportDocMutation")
	m.MyParameter = m.RegisterParameter("my_parameter", tensor.Scalar[float32](2))
	m.MyBuffer1 = m.RegisterBuffer("my_buffer1", tensor.Scalar[float32](3), true)
	m.MyBuffer2 = m.RegisterBuffer("my_buffer2", tensor.Scalar[float32](4), true)
	return m
}

// ArgNames names the inputs x1 and x2.
func (m *ExportDocMutation) ArgNames() []string { return []string{"x1", "x2"} }

// Forward returns (x1 + my_parameter) * my_buffer1 + x2 * my_buffer2 and
// then adds 1 to my_buffer2 in place.
func (m *ExportDocMutation) Forward(x1, x2 nn.Value) nn.Value {
	out := x1.Add(m.MyParameter.Value()).Mul(m.MyBuffer1.Value()).Add(x2.Mul(m.MyBuffer2.Value()))
	m.MyBuffer2.Value().Add_(1.0)
	return out
}

// ExportDocConv is the torch.export documentation example with an
// in-place add on an intermediate.
type ExportDocConv struct {
	nn.Base
	Conv    *nn.Conv2d
	ReLU    *nn.ReLU
	MaxPool *nn.MaxPool2d
}

// NewExportDocConv returns the module with fresh weights.
func NewExportDocConv() *ExportDocConv {
	m := &ExportDocConv{}
	m.Init(m, "ExportDocConv")
	m.Conv = nn.RegisterModule(&m.Base, "conv", nn.NewConv2d(3, 16, 3, nn.Padding(1)))
	m.ReLU = nn.RegisterModule(&m.Base, "relu", nn.NewReLU())
	m.MaxPool = nn.RegisterModule(&m.Base, "maxpool", nn.NewMaxPool2d(3))
	return m
}

// ArgNames names the inputs x and constant.
func (m *ExportDocConv) ArgNames() []string { return []string{"x", "constant"} }

// Forward is a = conv(x); a.add_(constant); maxpool(relu(a)).
func (m *ExportDocConv) Forward(x, constant nn.Value) nn.Value {
	a := m.Conv.Call(x)
	a.Add_(constant)
	return m.MaxPool.Call(m.ReLU.Call(a))
}
