package atengen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoName checks the naming rules.
func TestGoName(t *testing.T) {
	for q, want := range map[string]string{
		"aten::relu":                    "Relu",
		"aten::add.Tensor":              "AddTensor",
		"aten::max_pool2d_with_indices": "MaxPool2dWithIndices",
		"aten::sum.dim_IntList":         "SumDimIntList",
		"aten::convolution":             "Convolution",
		"aten::var.correction":          "VarCorrection",
		"aten::_softmax":                "InternalSoftmax",
		"aten::_to_copy":                "InternalToCopy",
		"aten::add_.Tensor":             "AddInplaceTensor",
		"aten::resize_":                 "ResizeInplace",
		"aten::_foreach_add_.List":      "InternalForeachAddInplaceList",
		"aten::__and__.Tensor":          "DunderAndTensor",
		"aten::div.Tensor_mode":         "DivTensorMode",
		"aten::grid_sampler_2d":         "GridSampler2d",
		"aten::t":                       "T",
	} {
		assert.Equal(t, want, GoName(q), q)
	}
}

// TestQualify checks the conversion of torch's overload names.
func TestQualify(t *testing.T) {
	for in, want := range map[string]string{
		"aten.relu.default":     "aten::relu",
		"aten.add.Tensor":       "aten::add.Tensor",
		"aten._softmax.default": "aten::_softmax",
	} {
		got, err := qualify(in)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	for _, bad := range []string{"relu", "aten.relu", "aten.relu.", "aten..default"} {
		_, err := qualify(bad)
		assert.Error(t, err, bad)
	}
}

// TestCollisions checks that a collision between an overload and a plain
// name is resolved, and that one between two plain names fails.
func TestCollisions(t *testing.T) {
	hs, err := Handles(Input{Core: "aten::add.Tensor(Tensor self) -> Tensor\naten::add_tensor(Tensor self) -> Tensor\n"})
	require.NoError(t, err)
	require.Len(t, hs, 2)
	assert.Equal(t, "AddTensor", hs[0].GoName)
	assert.Equal(t, "aten::add_tensor", hs[0].Qualified)
	assert.Equal(t, "Add_Tensor", hs[1].GoName)
	assert.Equal(t, "aten::add.Tensor", hs[1].Qualified)

	_, err = Handles(Input{Core: "aten::foo_bar(Tensor self) -> Tensor\naten::foo__bar(Tensor self) -> Tensor\n"})
	assert.ErrorContains(t, err, "both map to the Go name FooBar")

	_, err = Handles(Input{Core: "aten::all(Tensor self) -> Tensor\n"})
	assert.ErrorContains(t, err, "declared by package aten")
}

// TestInputErrors checks that bad input fails generation.
func TestInputErrors(t *testing.T) {
	_, err := Handles(Input{Conformance: "aten.relu.default\n"})
	assert.ErrorContains(t, err, "no PyTorch 1.13, 2.6 or 2.14 schema for aten.relu.default")
	_, err = Handles(Input{Core: "aten::relu(Tensor self -> Tensor\n"})
	assert.ErrorContains(t, err, "core schemas")
	_, err = Handles(Input{Core: "aten::relu(Tensor self) -> Tensor\naten::relu(Tensor self) -> Tensor\n"})
	assert.ErrorContains(t, err, "listed twice")

	hs, err := Handles(Input{
		Core:        "aten::relu(Tensor self) -> Tensor\n",
		All:         "aten::relu(Tensor self) -> Tensor\naten::relu6(Tensor self) -> Tensor\n",
		Conformance: "# comment\naten.relu.default\naten.relu6.default\n",
	})
	require.NoError(t, err)
	assert.Equal(t, []Handle{
		{GoName: "Relu", Qualified: "aten::relu", Schema: "aten::relu(Tensor self) -> Tensor", Core: true, Conformance: true},
		{GoName: "Relu6", Qualified: "aten::relu6", Schema: "aten::relu6(Tensor self) -> Tensor", Conformance: true},
	}, hs)
}
