package functional

import (
	"math"

	"github.com/gofx/gofx/nn"
)

// NoMin and NoMax are the bounds ConstrainAsSize and ConstrainAsValue take
// for "no bound" (PyTorch's None; ranges print them as -int_oo, int_oo).
const (
	NoMin = math.MinInt64
	NoMax = math.MaxInt64
)

// Check is torch._check(cond, message): it states that cond holds. Run
// eagerly, a false cond is an error, with message or PyTorch's "Expected
// cond to be True, but got False. ..."; cond is a bool Value (or a Go
// bool). Exported, cond is usually a comparison of a data-dependent value
// (n := k.Item(); Check(n.Le(x.Size(0)))): the exporter learns it,
// narrowing n's range, and the program asserts it at run time
// (aten._assert_scalar after the node that reads n). A condition the
// example inputs already decide is checked then and records nothing.
func Check(cond any, message ...string) {
	args := []nn.Value{nn.Of(cond)}
	if len(message) > 0 {
		args = append(args, nn.Of(message[0]))
	}
	nn.CallFunction(nn.TorchCheck, args, nil)
}

// CheckIsSize is torch._check_is_size(n): n is a size (n >= 0). Eagerly a
// negative n is an error with Check's message. Exported, n (an unbacked
// symbol from Value.Item) becomes size-like: its range starts at 0, it
// can size tensors, and PyTorch 2.6's program records
// aten.sym_constrain_range_for_size after the node that reads it, then
// asserts its range.
func CheckIsSize(n nn.Value) { nn.CallFunction(nn.TorchCheckIsSize, []nn.Value{n}, nil) }

// ConstrainAsSize is torch._constrain_as_size(n, min, max): CheckIsSize
// with the range [max(min, 0), max] (NoMin, NoMax for none). Eagerly a
// value outside is an error, "Invalid value range for 5 between [0, 3].".
func ConstrainAsSize(n nn.Value, min, max int64) {
	if min < 0 {
		min = 0
	}
	nn.CallFunction(nn.TorchConstrainAsSize, []nn.Value{n, nn.Of(min), nn.Of(max)}, nil)
}

// ConstrainAsValue is torch.sym_constrain_range(n, min, max) (PyTorch
// 2.1's torch._constrain_as_value): n lies in [min, max] (NoMin, NoMax for
// none), without being a size. Eagerly a value outside is an error with
// ConstrainAsSize's message; exported, n's range is narrowed and asserted
// at run time.
func ConstrainAsValue(n nn.Value, min, max int64) {
	nn.CallFunction(nn.TorchConstrainAsValue, []nn.Value{n, nn.Of(min), nn.Of(max)}, nil)
}

var opNonzero = nn.Op("aten::nonzero")

// Nonzero is torch.nonzero(x): the indices of x's nonzero elements, one
// row each (int64, shape [count, x.Dim()]). Exported, count is an
// unbacked symbol in [0, x.numel()], asserted at run time after the node.
func Nonzero(x nn.Value) nn.Value { return nn.CallOp(opNonzero, x) }
