package archive_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/archive"
)

// shared is ../shared seen from this package (the module root is two
// folders up).
const shared = "../../../shared"

// expected is what dump_expected.py wrote: what PyTorch's torch.jit.load
// reads from each archive.
type expected struct {
	Version    int               `json:"version"`
	Code       []string          `json:"code"`
	Extra      map[string]string `json:"extra"`
	Tree       any               `json:"tree"`
	Parameters [][2]any          `json:"parameters"`
	Buffers    [][2]any          `json:"buffers"`
	Constants  any               `json:"constants"`
	Ranges     []string          `json:"ranges"`
}

func loadExpected(t *testing.T, file string) map[string]expected {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	var m map[string]expected
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// TestArchives opens every archive of testdata (made by gen_archives.py)
// and of ../shared (torchscript/ by PyTorch 2.6, torchscript/torch-2.14/,
// models/*.traced.pt by PyTorch 1.13) and compares what it reads with
// what PyTorch reads from the same file (testdata/expected*.json).
func TestArchives(t *testing.T) {
	for _, set := range []struct{ expected, dir string }{
		{"testdata/expected.json", "testdata"},
		{"testdata/expected_shared.json", shared},
	} {
		for name, want := range loadExpected(t, set.expected) {
			t.Run(name, func(t *testing.T) {
				path := filepath.Join(set.dir, name+".pt")
				if _, err := os.Stat(path); err != nil {
					t.Skipf("%s is absent: %v", path, err)
				}
				a, err := archive.Open(path)
				require.NoError(t, err)
				checkArchive(t, a, want)
			})
		}
	}
}

func checkArchive(t *testing.T, a *archive.Archive, want expected) {
	require.Equal(t, want.Version, a.Version, "version")
	var quals []string
	for _, f := range a.Code {
		quals = append(quals, f.Qualifier)
		g, ok := a.Source(f.Qualifier)
		require.True(t, ok)
		require.Same(t, f, g)
	}
	require.Equal(t, want.Code, quals, "code files")
	extra := map[string]string{}
	for k, v := range a.Extra {
		extra[k] = string(v)
	}
	if want.Extra == nil {
		want.Extra = map[string]string{}
	}
	require.Equal(t, want.Extra, extra, "extra files")

	var diffs []string
	match(&diffs, "data", want.Tree, a.Data)
	match(&diffs, "constants", want.Constants, a.Constants)
	require.Empty(t, diffs)

	root, err := a.Root()
	require.NoError(t, err)
	params, buffers := stateOf(t, a, root)
	require.Equal(t, fmt.Sprint(want.Parameters), fmt.Sprint(params), "parameters (from the code's __parameters__)")
	require.Equal(t, fmt.Sprint(want.Buffers), fmt.Sprint(buffers), "buffers (from the code's __buffers__)")

	ranges := map[string]bool{}
	for _, f := range a.Code {
		if !f.HasDebugInfo() {
			continue
		}
		d, err := f.DebugInfo()
		require.NoError(t, err)
		for _, r := range d.Records {
			ranges[r.Range.String()] = true
		}
	}
	for _, r := range want.Ranges {
		if !ranges[r] {
			t.Errorf("PyTorch's graphs cite %s, which no debug_pkl record gives", r)
		}
	}
}

// match compares a value with dump_expected.py's summary of PyTorch's.
func match(diffs *[]string, path string, want any, got archive.Value) {
	bad := func(format string, args ...any) {
		*diffs = append(*diffs, path+": "+fmt.Sprintf(format, args...))
	}
	switch w := want.(type) {
	case nil:
		if got != nil {
			bad("got %T, want None", got)
		}
	case bool:
		if g, ok := got.(bool); !ok || g != w {
			bad("got %v, want %v", got, w)
		}
	case string:
		if g, ok := got.(string); !ok || g != w {
			bad("got %v, want %q", got, w)
		}
	case float64: // a Python int
		if g, ok := got.(int64); !ok || float64(g) != w {
			bad("got %v (%T), want int %v", got, got, w)
		}
	case map[string]any:
		switch {
		case w["float"] != nil:
			g, ok := got.(float64)
			if !ok || !near(g, w["float"]) {
				bad("got %v (%T), want float %v", got, got, w["float"])
			}
		case w["tensor"] != nil:
			g, ok := got.(*tensor.Tensor)
			if !ok {
				bad("got %T, want a tensor", got)
				return
			}
			matchTensor(bad, w["tensor"].(map[string]any), g)
		case w["object"] != nil:
			g, ok := got.(*archive.Object)
			if !ok || g.Class != w["object"] {
				bad("got %T %v, want an object of class %v", got, got, w["object"])
				return
			}
			attrs, ok := w["attrs"].([]any)
			if !ok {
				return
			}
			if len(attrs) != len(g.Attrs) {
				bad("got %d attributes, want %d", len(g.Attrs), len(attrs))
				return
			}
			for i, a := range attrs {
				pair := a.([]any)
				if g.Attrs[i].Name != pair[0] {
					bad("attribute %d is %s, want %s", i, g.Attrs[i].Name, pair[0])
					continue
				}
				match(diffs, path+"."+g.Attrs[i].Name, pair[1], g.Attrs[i].Value)
			}
		case w["list"] != nil:
			g, ok := got.(*archive.List)
			if !ok {
				bad("got %T, want a list", got)
				return
			}
			matchSeq(diffs, path, w["list"].([]any), g.Items)
		case w["tuple"] != nil:
			g, ok := got.(archive.Tuple)
			if !ok {
				bad("got %T, want a tuple", got)
				return
			}
			matchSeq(diffs, path, w["tuple"].([]any), g)
		case w["dict"] != nil:
			g, ok := got.(*archive.Dict)
			if !ok {
				bad("got %T, want a dict", got)
				return
			}
			items := w["dict"].([]any)
			if len(items) != g.Len() {
				bad("got %d items, want %d", g.Len(), len(items))
				return
			}
			for i, it := range items {
				kv := it.([]any)
				match(diffs, fmt.Sprintf("%s[key %d]", path, i), kv[0], g.Keys[i])
				match(diffs, fmt.Sprintf("%s[%v]", path, g.Keys[i]), kv[1], g.Values[i])
			}
		case w["complex"] != nil:
			parts := w["complex"].([]any)
			g, ok := got.(complex128)
			if !ok || !near(real(g), parts[0]) || !near(imag(g), parts[1]) {
				bad("got %v (%T), want complex %v", got, got, parts)
			}
		case w["enum"] != nil:
			// PyTorch shows the member's name, the pickle holds its value
			// (checked in TestTypeTags).
			g, ok := got.(*archive.Enum)
			if !ok || !strings.HasSuffix(g.Class, "."+w["enum"].(string)) {
				bad("got %v (%T), want a value of enum %v", got, got, w["enum"])
			}
		case w["device"] != nil:
			if g, ok := got.(archive.Device); !ok || string(g) != w["device"] {
				bad("got %v, want device %v", got, w["device"])
			}
		default:
			bad("unknown expected value %v", w)
		}
	default:
		bad("unknown expected value %v", w)
	}
}

func matchSeq(diffs *[]string, path string, want []any, got []archive.Value) {
	if len(want) != len(got) {
		*diffs = append(*diffs, fmt.Sprintf("%s: got %d items, want %d", path, len(got), len(want)))
		return
	}
	for i := range want {
		match(diffs, fmt.Sprintf("%s[%d]", path, i), want[i], got[i])
	}
}

func near(got float64, want any) bool {
	switch w := want.(type) {
	case float64:
		return got == w || math.Abs(got-w) <= 1e-6*math.Max(1, math.Abs(w))
	case string: // "inf", "-inf", "nan"
		f, err := strconv.ParseFloat(w, 64)
		return err == nil && (f == got || math.IsNaN(f) && math.IsNaN(got))
	}
	return false
}

func matchTensor(bad func(string, ...any), w map[string]any, g *tensor.Tensor) {
	if g.DType().String() != w["dtype"] {
		bad("dtype %v, want %v", g.DType(), w["dtype"])
		return
	}
	if fmt.Sprint(g.Shape()) != fmt.Sprint(w["shape"]) || (g.Numel() > 0 && fmt.Sprint(g.Strides()) != fmt.Sprint(w["stride"])) {
		bad("shape %v stride %v, want %v %v", g.Shape(), g.Strides(), w["shape"], w["stride"])
		return
	}
	vals := g.Float64s()
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	if !near(sum, w["sum"]) {
		bad("sum %v, want %v", sum, w["sum"])
	}
	if wv, ok := w["values"].([]any); ok {
		if len(wv) != len(vals) {
			bad("%d values, want %d", len(vals), len(wv))
			return
		}
		for i, x := range wv {
			if b, ok := x.(bool); ok {
				x = map[bool]float64{false: 0, true: 1}[b]
			}
			if !near(vals[i], x) {
				bad("value %d is %v, want %v", i, vals[i], x)
			}
		}
	}
}

// stateOf lists the parameters and buffers of the module tree as
// named_parameters and named_buffers do, finding them by the names the
// code's classes list in __parameters__ and __buffers__.
func stateOf(t *testing.T, a *archive.Archive, root *archive.Object) (params, buffers [][2]any) {
	seen := map[*tensor.Tensor]bool{}
	var walk func(prefix string, o *archive.Object)
	walk = func(prefix string, o *archive.Object) {
		ps, bs, ok := classState(t, a, o.Class)
		if !ok {
			return
		}
		for _, list := range []struct {
			names []string
			out   *[][2]any
		}{{ps, &params}, {bs, &buffers}} {
			for _, n := range list.names {
				v, ok := o.Attr(n)
				require.True(t, ok, "%s has no attribute %s its class lists", prefix, n)
				if v == nil {
					continue
				}
				tt, ok := v.(*tensor.Tensor)
				require.True(t, ok, "%s%s is %T", prefix, n, v)
				if !seen[tt] {
					seen[tt] = true
					*list.out = append(*list.out, [2]any{prefix + n, shapeOf(tt)})
				}
			}
		}
		for _, at := range o.Attrs {
			if sub, ok := at.Value.(*archive.Object); ok {
				walk(prefix+at.Name+".", sub)
			}
		}
	}
	walk("", root)
	return params, buffers
}

func shapeOf(t *tensor.Tensor) []int {
	s := t.Shape()
	if s == nil {
		s = []int{}
	}
	return s
}

var stateLists = regexp.MustCompile(`(?m)^  (__parameters__|__buffers__) = \[(.*)\]$`)

// classState returns the __parameters__ and __buffers__ of the module class
// qual as its code file declares them; ok is false for other classes.
func classState(t *testing.T, a *archive.Archive, qual string) (params, buffers []string, ok bool) {
	i := strings.LastIndexByte(qual, '.')
	f, found := a.Source(qual[:i])
	require.True(t, found, "no code file for class %s", qual)
	start := strings.Index(f.Text, "class "+qual[i+1:]+"(Module):\n")
	if start < 0 {
		return nil, nil, false
	}
	body := f.Text[start:]
	if end := strings.Index(body[1:], "\nclass "); end >= 0 {
		body = body[:end+1]
	}
	for _, m := range stateLists.FindAllStringSubmatch(body, -1) {
		var names []string
		for _, n := range strings.Split(m[2], ",") {
			if n = strings.Trim(strings.TrimSpace(n), `"`); n != "" {
				names = append(names, n)
			}
		}
		if m[1] == "__parameters__" {
			params = names
		} else {
			buffers = names
		}
	}
	return params, buffers, true
}

// TestTypeTags checks the type tags and class objects of attrs.script.pt
// (gen_archives.py's Attrs), which PyTorch's Python side cannot show.
func TestTypeTags(t *testing.T) {
	a, err := archive.Open("testdata/attrs.script.pt")
	require.NoError(t, err)
	root, err := a.Root()
	require.NoError(t, err)
	tags := map[string]string{}
	for _, at := range root.Attrs {
		switch v := at.Value.(type) {
		case *archive.List:
			tags[at.Name] = v.Type
		case *archive.Dict:
			tags[at.Name] = v.Type
		}
	}
	require.Equal(t, map[string]string{
		"ints": "List[int]", "floats": "List[float]", "bools": "List[bool]", "strs": "List[str]",
		"tensors": "List[Tensor]", "empty": "List[int]", "table": "Dict[str, int]", "by_int": "Dict[int, Tensor]",
	}, tags)
	p, _ := root.Attr("point")
	point := p.(*archive.Object)
	require.Equal(t, "__torch__.Point", point.Class)
	require.Equal(t, []archive.Attr{{Name: "x", Value: int64(3)}, {Name: "y", Value: 4.0}}, point.Attrs)
	s, _ := root.Attr("stateful")
	st := s.(*archive.Object)
	require.Equal(t, "__torch__.Stateful", st.Class)
	require.Equal(t, archive.Tuple{int64(5), "five"}, st.State, "the __getstate__ tuple")
	require.Nil(t, st.Attrs)
	// Tensors of one storage share it, as in PyTorch.
	view, _ := root.Attr("view")
	require.Equal(t, 4, view.(*tensor.Tensor).Offset())
	require.Equal(t, "traced.trace", mustOpen(t, "testdata/traced.trace.pt").Name)

	misc, err := mustOpen(t, "testdata/misc.script.pt").Root()
	require.NoError(t, err)
	color, _ := misc.Attr("color")
	require.Equal(t, &archive.Enum{Class: "__torch__.Color", Value: int64(2)}, color, "Color.GREEN")
	nested, _ := misc.Attr("nested")
	require.Equal(t, "List[List[int]]", nested.(*archive.List).Type)
	require.Equal(t, "List[int]", nested.(*archive.List).Items[0].(*archive.List).Type, "inner lists are tagged too")
}

func mustOpen(t *testing.T, path string) *archive.Archive {
	t.Helper()
	a, err := archive.Open(path)
	require.NoError(t, err)
	return a
}

// TestDebugInfoFormats checks that both debug_pkl formats decode to the
// same source ranges: attrs_oldfmt.script.pt is attrs.script.pt saved with
// the string table turned off.
func TestDebugInfoFormats(t *testing.T) {
	ranges := func(path string) []string {
		var out []string
		for _, f := range mustOpen(t, path).Code {
			d, err := f.DebugInfo()
			require.NoError(t, err)
			for _, r := range d.Records {
				out = append(out, fmt.Sprintf("%s@%d %s %q", f.Qualifier, r.Offset, r.Range, r.Range.Text()))
			}
		}
		sort.Strings(out)
		return out
	}
	newf, oldf := ranges("testdata/attrs.script.pt"), ranges("testdata/attrs_oldfmt.script.pt")
	require.NotEmpty(t, newf)
	require.Empty(t, cmp.Diff(newf, oldf))
}
