package export_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/export"
)

func TestParseDims(t *testing.T) {
	d, err := export.ParseDims("x1:0=batch[2,64]; x2:0=batch x1:1=seq[4,inf]")
	require.NoError(t, err)
	assert.Same(t, d["x1"][0], d["x2"][0], "one name is one shared Dimension")
	assert.Equal(t, export.Dimension{Name: "batch", Min: 2, Max: 64}, *d["x1"][0])
	assert.Equal(t, export.Dimension{Name: "seq", Min: 4, Max: export.Inf}, *d["x1"][1])
	assert.Equal(t, "batch := export.Dim(\"batch\", 2, 64)\nexport.Dims{\"x1\": {0: batch, 1: export.Dim(\"seq\", 4, export.Inf)}, \"x2\": {0: batch}}", d.GoString())

	d, err = export.ParseDims("x:0=b")
	require.NoError(t, err)
	assert.Equal(t, export.Dimension{Name: "b", Min: 2, Max: export.Inf}, *d["x"][0])
	d, err = export.ParseDims("x:0=b; y:0=b[3,9]")
	require.NoError(t, err)
	assert.Equal(t, export.Dimension{Name: "b", Min: 3, Max: 9}, *d["x"][0], "a later range applies to the shared dimension")

	d, err = export.ParseDims("x:0=auto; y:1=auto x:1=b")
	require.NoError(t, err)
	assert.Same(t, export.Auto, d["x"][0])
	assert.Same(t, export.Auto, d["y"][1])
	assert.Equal(t, `export.Dims{"x": {0: export.Auto, 1: export.Dim("b", 2, export.Inf)}, "y": {1: export.Auto}}`, d.GoString())

	for _, tc := range []struct{ spec, want string }{
		{"x0=b", "malformed entry"},
		{"x:0=auto[2,4]", "an auto dimension takes no range"},
		{"x:0=auto; x:0=auto", "x dim 0 declared twice"},
		{"x:a=b", `dimension "a" is not a non-negative integer`},
		{"x:-1=b", "is not a non-negative integer"},
		{"x:0=b[2,", "unclosed range"},
		{"x:0=b[2]", "a range is [MIN,MAX]"},
		{"x:0=b[z,3]", `bad minimum "z"`},
		{"x:0=b[2,q]", `bad maximum "q"`},
		{"x:0=b[9,3]", "min 9 > max 3"},
		{"x:0=[2,3]", `bad dimension name ""`},
		{"x:0=b[2,8]; y:0=b[2,9]", "declared with two ranges [2, 8] and [2, 9]"},
		{"x:0=b; x:0=c", "x dim 0 declared twice"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			_, err := export.ParseDims(tc.spec)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// FuzzParseDims checks that any spec parses or fails without panicking and
// that what parses prints as a Go expression.
func FuzzParseDims(f *testing.F) {
	for _, s := range []string{"x1:0=batch[2,64]; x2:0=batch", "x:1=s[4,inf]", "a:0=b c:2=b[1,1]", ":=[,]", "x:0=auto; y:1=auto x:1=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := export.ParseDims(s)
		if err != nil {
			return
		}
		for _, m := range d {
			for _, dim := range m {
				if dim.Min > dim.Max {
					t.Fatalf("%q: parsed a dimension with min > max: %v", s, dim)
				}
			}
		}
		_ = d.GoString()
	})
}
