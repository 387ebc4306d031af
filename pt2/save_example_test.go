package pt2_test

import (
	"bytes"
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/tensor"
)

// tiny is a linear layer followed by relu.
type tiny struct {
	nn.Base
	FC *nn.Linear
}

func newTiny() *tiny {
	m := &tiny{}
	m.Init(m, "Tiny")
	m.FC = nn.RegisterModule(&m.Base, "fc", nn.NewLinear(4, 2, true))
	return m
}

func (m *tiny) Forward(x nn.Value) nn.Value { return nn.Call(m.FC, x).Relu() }

// Export a Go model with a dynamic batch, save it as PyTorch 2.14's PT2
// archive (torch.export.load reads it) and load it back.
func ExampleSave() {
	x := tensor.Must(tensor.Ones(tensor.Float32, 3, 4))
	ep, err := export.Export(newTiny(), []any{x}, export.Dims{"x": {0: export.Dim("batch", 2, 64)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if err := pt2.Save(&buf, ep, pt2.SaveOptions{Format: pt2.Archive}); err != nil {
		fmt.Println(err)
		return
	}
	back, err := pt2.Read(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("same program:", back.String() == ep.String())
	fmt.Print(back.Graph.Code())
	out, err := back.Run(tensor.Must(tensor.Ones(tensor.Float32, 5, 4)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.MustTensor().Shape())
	// Output:
	// same program: true
	// def forward(self, p_fc_weight, p_fc_bias, x):
	//     permute = torch.ops.aten.permute.default(p_fc_weight, [1, 0]);  p_fc_weight = None
	//     addmm = torch.ops.aten.addmm.default(p_fc_bias, x, permute);  p_fc_bias = x = permute = None
	//     relu = torch.ops.aten.relu.default(addmm);  addmm = None
	//     return (relu,)
	// [5 2]
}
