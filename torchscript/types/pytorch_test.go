package types

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgainstPyTorch checks ParseIR, String, Annotation, IsSubtype and
// Unify against what PyTorch 2.6 answered for the same types
// (testdata/types.txt, made by gen_types.py with torch._C.parse_ir,
// Type.isSubtypeOf and torch._C.unify_type_list).
func TestAgainstPyTorch(t *testing.T) {
	f, err := os.Open("testdata/types.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fs := strings.Split(line, "\t")
		n++
		switch fs[0] {
		case "type":
			if fs[2] == "ERROR" {
				continue // PyTorch's parser refuses it (FloatTensor, Tensor(*, *)); gofx reads what PyTorch prints
			}
			typ := mustParse(t, fs[1])
			assert.Equal(t, fs[2], typ.String(), "String of %s", fs[1])
			assert.Equal(t, fs[3], typ.Annotation(), "Annotation of %s", fs[1])
		case "sub":
			assert.Equal(t, fs[3] == "True", IsSubtype(mustParse(t, fs[1]), mustParse(t, fs[2])), "%s <: %s", fs[1], fs[2])
		case "unify":
			got, ok := Unify(mustParse(t, fs[1]), mustParse(t, fs[2]))
			if fs[3] == "ERROR" {
				assert.False(t, ok, "unify %s, %s gave %v", fs[1], fs[2], got)
				continue
			}
			if assert.True(t, ok, "unify %s, %s", fs[1], fs[2]) {
				assert.Equal(t, fs[3], got.String(), "unify %s, %s", fs[1], fs[2])
			}
		}
	}
	assert.Greater(t, n, 50)
}
