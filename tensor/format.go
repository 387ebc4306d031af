package tensor

import (
	"fmt"
	"strings"
)

// String returns a short description: dtype, shape and, for small tensors,
// the values ("float32[2, 3] [[1, 2, 3], [4, 5, 6]]"). Format's %v prints
// PyTorch's repr.
func (t *Tensor) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s", t.dtype, fmtShape(t.shape))
	if t.st == nil {
		b.WriteString(" (meta)")
	}
	return b.String()
}
