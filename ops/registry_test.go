package ops_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Operators are node.Functions.
var (
	_ node.Function    = (*ops.Operator)(nil)
	_ node.Impurer     = (*ops.Operator)(nil)
	_ node.PythonNamer = (*ops.Operator)(nil)
)

func TestGlobalRegistry(t *testing.T) {
	r := ops.Global()
	core := schemaLines(t, "core_schemas.txt")
	all := schemaLines(t, "all_schemas_1.13.txt")
	// Every schema of 1.13 plus the operators new in 2.6 and 2.14 (more
	// when examples or tests have defined custom operators).
	assert.GreaterOrEqual(t, r.Len(), len(all)+5)
	for _, line := range all {
		o, ok := r.Lookup(ops.MustParseSchema(line).QualifiedName())
		require.True(t, ok, line)
		assert.Contains(t, schemaStrings(o), line, "1.13's schema is among the versions of %s", o)
	}
	for _, line := range core {
		s := ops.MustParseSchema(line)
		o, ok := r.Lookup(s.QualifiedName())
		require.True(t, ok, s.QualifiedName())
		assert.True(t, o.Has(ops.Core), "%s is core", o)
		assert.Contains(t, schemaStrings(o), line)
	}
	tests := []struct {
		name, qualified, short string
		has, hasNot            ops.Tag
	}{
		{"aten::add.Tensor", "aten.add.Tensor", "add", ops.Core | ops.Pointwise, ops.Mutable | ops.View},
		{"aten::gelu", "aten.gelu.default", "gelu", ops.Core | ops.Pointwise, ops.Mutable},
		{"aten::where.self", "aten.where.self", "where", ops.Core | ops.Pointwise, 0},
		{"aten::mul_.Tensor", "aten.mul_.Tensor", "mul_", ops.Inplace | ops.Pointwise, 0},
		{"aten::cat", "aten.cat.default", "cat", ops.Core, ops.Pointwise},
		{"aten::mm", "aten.mm.default", "mm", ops.Core, ops.Pointwise},
		{"aten::add.int", "aten.add.int", "add", 0, ops.Pointwise},
		{"aten.relu.default", "aten.relu.default", "relu", ops.Core, ops.Composite},
		{"aten::relu", "aten.relu.default", "relu", ops.Core, 0},
		{"aten::add_.Tensor", "aten.add_.Tensor", "add_", ops.Inplace | ops.Mutable, ops.View},
		{"aten::add.out", "aten.add.out", "add", ops.Mutable, ops.Inplace},
		{"aten::transpose.int", "aten.transpose.int", "transpose", ops.View, ops.Mutable},
		{"aten::linear", "aten.linear.default", "linear", ops.Composite, ops.Core},
		{"aten::bernoulli.p", "aten.bernoulli.p", "bernoulli", ops.Random, ops.Mutable},
		{"aten::rand", "aten.rand.default", "rand", ops.Random, ops.Mutable},
		{"aten::randn_like", "aten.randn_like.default", "randn_like", ops.Random, ops.Mutable},
		{"aten::native_dropout", "aten.native_dropout.default", "native_dropout", ops.Random, ops.Mutable},
		{"aten::copy_", "aten.copy_.default", "copy_", ops.Inplace | ops.Mutable, 0},
	}
	for _, tt := range tests {
		o, ok := r.Lookup(tt.name)
		require.True(t, ok, tt.name)
		assert.Equal(t, tt.qualified, o.String())
		assert.Equal(t, tt.short, o.ShortName())
		assert.Equal(t, "torch.ops."+tt.qualified, o.PythonName())
		assert.True(t, o.Has(tt.has), "%s has %s, got %s", tt.name, tt.has, o.Tags())
		if tt.hasNot != 0 {
			assert.Zero(t, o.Tags()&tt.hasNot, "%s lacks %s, got %s", tt.name, tt.hasNot, o.Tags())
		}
		assert.Equal(t, o.Has(ops.Mutable), o.Impure())
	}
	_, ok := r.Lookup("aten::no_such_op")
	assert.False(t, ok)
	assert.GreaterOrEqual(t, len(r.Overloads("aten", "add")), 4)
}

func TestRegisterCustom(t *testing.T) {
	r := ops.NewRegistry()
	o, err := r.Register("mylib::fused_add_relu(Tensor x, Tensor y, *, Scalar alpha=1) -> Tensor", 0)
	require.NoError(t, err)
	assert.Equal(t, "mylib.fused_add_relu.default", o.String())
	got, ok := r.Lookup("mylib::fused_add_relu")
	require.True(t, ok)
	assert.Same(t, o, got)
	_, err = r.Register("mylib::fused_add_relu(Tensor x) -> Tensor", 0)
	assert.ErrorContains(t, err, "already registered")
	_, err = r.Register("mylib::broken(", 0)
	var se *ops.SchemaError
	assert.ErrorAs(t, err, &se)
}

// schemaStrings prints every schema of o, newest first.
func schemaStrings(o *ops.Operator) []string {
	var out []string
	for _, s := range o.Schemas() {
		out = append(out, s.String())
	}
	return out
}
