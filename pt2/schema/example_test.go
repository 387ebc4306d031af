package schema_test

import (
	"fmt"
	"log"
	"os"

	"github.com/gofx/gofx/pt2/schema"
)

func ExampleDecode() {
	// serialized_exported_program.json of a .pt2 file PyTorch 2.6 wrote.
	data, err := os.ReadFile("testdata/mlp.v8.2.json")
	if err != nil {
		log.Fatal(err)
	}
	p, err := schema.Decode(data)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("schema", p.SchemaVersion.Major, p.SchemaVersion.Minor, "torch", p.TorchVersion)
	for _, n := range p.GraphModule.Graph.Nodes {
		fmt.Println(n.Target, *n.Outputs[0].AsTensor)
	}
	for _, s := range p.GraphModule.Signature.InputSpecs {
		if s.Parameter != nil {
			fmt.Println("parameter", s.Parameter.ParameterName)
		}
	}
	fmt.Println(p.GraphModule.Graph.TensorValues["linear_1"].Dtype)
	// Output:
	// schema 8 2 torch 2.6.0+debian
	// torch.ops.aten.linear.default {linear}
	// torch.ops.aten.relu.default {relu}
	// torch.ops.aten.linear.default {linear_1}
	// parameter 0.weight
	// parameter 0.bias
	// parameter 2.weight
	// parameter 2.bias
	// FLOAT
}

func ExampleEncode() {
	one := int64(1)
	p := &schema.ExportedProgram{
		SchemaVersion: schema.SchemaVersion{Major: 8, Minor: 2},
		OpsetVersion:  map[string]int64{"aten": 10},
		RangeConstraints: map[string]schema.RangeConstraint{
			"s0": {MinVal: &one},
		},
	}
	data, err := schema.Encode(p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(data))
	// Output:
	// {"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false, "custom_obj_values": {}, "sym_float_values": {}}, "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": [], "metadata": {}}, "opset_version": {"aten": 10}, "range_constraints": {"s0": {"min_val": 1, "max_val": null}}, "schema_version": {"major": 8, "minor": 2}, "verifiers": [], "torch_version": ""}
}
