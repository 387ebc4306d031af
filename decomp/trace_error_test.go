package decomp_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/ops/aten"
)

// TestRuleDataDependent checks that a rule branching on tensor data fails
// with the one data-dependent error, *fx.TraceError, naming the rule's Go
// line and saying that decomp stopped.
func TestRuleDataDependent(t *testing.T) {
	g, err := graph.Parse(`%x = placeholder "x"() {val: f32[2]}
%r = call_function aten.relu.default(%x)
%output = output "output"(%r)
`)
	require.NoError(t, err)
	gm, err := fx.NewGraphModule(nil, g)
	require.NoError(t, err)
	table := decomp.Table{aten.Relu: func(args []nn.Value) (out nn.Value, err error) {
		defer nn.Recover(&err)
		if nn.CallOp(aten.GtScalar, nn.CallOp(aten.Sum, args[0]), 0).Bool() {
			return args[0], nil
		}
		return nn.CallOp(aten.Relu, args[0]), nil
	}}
	_, err = decomp.Decompose(gm, table)
	var te *fx.TraceError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "decomp", te.Tracer)
	assert.Equal(t, "a bool", te.What)
	assert.Contains(t, te.Location, "trace_error_test.go:")
	assert.Contains(t, err.Error(), "rules may branch on shapes and dtypes only")
}
