package aten

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/ops/aten/internal/atengen"
)

// readInput reads the generator's input files from the paths go generate
// uses (the tests run in the package directory too).
func readInput(t *testing.T) atengen.Input {
	t.Helper()
	read := func(path string) string {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		return string(b)
	}
	return atengen.Input{
		Core:        read("../schemas/core_schemas.txt"),
		All:         read("../schemas/all_schemas_1.13.txt"),
		Newer:       read("../schemas/versions_2.x.txt"),
		Conformance: read("conformance_ops.txt"),
		Programs:    read("program_ops.txt"),
	}
}

// TestGeneratedFileIsCurrent regenerates aten.go in-process and compares
// it with the committed file byte for byte.
func TestGeneratedFileIsCurrent(t *testing.T) {
	want, err := atengen.Generate(readInput(t))
	require.NoError(t, err)
	got, err := os.ReadFile("aten.go")
	require.NoError(t, err)
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
			i++
		}
		line := func(ls []string) string {
			if i < len(ls) {
				return ls[i]
			}
			return "<end of file>"
		}
		t.Fatalf("aten.go is stale: run go generate ./ops/aten\nfirst difference at line %d:\n  committed: %s\n  generated: %s",
			i+1, line(gl), line(wl))
	}
	assert.True(t, bytes.HasPrefix(got, []byte(atengen.Header+"\n")), "the generated header")
}

// TestHandles checks every handle against the generator's list and the
// registry: the handle is the operator ops.Global() has under the
// qualified name its Go name was made from, with the same schema and the
// core tag exactly when the core list has it.
func TestHandles(t *testing.T) {
	want, err := atengen.Handles(readInput(t))
	require.NoError(t, err)
	require.Len(t, handles, len(want))
	require.Len(t, All(), len(want))
	names := make([]string, len(handles))
	for i, h := range handles {
		names[i] = h.name
		w := want[i]
		t.Run(h.name, func(t *testing.T) {
			require.NotNil(t, h.op)
			assert.Equal(t, w.GoName, h.name)
			assert.Equal(t, w.Qualified, h.op.Schema().QualifiedName())
			assert.Equal(t, w.Schema, h.op.Schema().String())
			reg, ok := ops.Global().Lookup(w.Qualified)
			require.True(t, ok, "ops.Global() lacks %s", w.Qualified)
			assert.Same(t, reg, h.op)
			assert.Same(t, reg, All()[i])
			assert.Equal(t, w.Core, h.op.Has(ops.Core), "core tag")
		})
	}
	assert.True(t, sort.StringsAreSorted(names), "handles sorted by Go name")
}

// TestNoCollisions checks that today's lists need no collision
// resolution: every Go name is the plain GoName of its operator. A new
// operator that collides gets a resolved name ("Add_Tensor") and fails
// this test, so that someone looks at the name before it ships.
func TestNoCollisions(t *testing.T) {
	for _, h := range handles {
		assert.Equal(t, atengen.GoName(h.op.Schema().QualifiedName()), h.name)
	}
}

// TestSpotChecks pins a few handles to their operators.
func TestSpotChecks(t *testing.T) {
	for _, tc := range []struct {
		op   *ops.Operator
		want string
	}{
		{Relu, "aten.relu.default"},
		{AddTensor, "aten.add.Tensor"},
		{MaxPool2dWithIndices, "aten.max_pool2d_with_indices.default"},
		{SumDimIntList, "aten.sum.dim_IntList"},
		{Convolution, "aten.convolution.default"},
		{VarCorrection, "aten.var.correction"},
		{InternalSoftmax, "aten._softmax.default"},
		{InternalToCopy, "aten._to_copy.default"},
		{ResizeInplace, "aten.resize_.default"},
		{DivTensorMode, "aten.div.Tensor_mode"},
		{SqueezeDims, "aten.squeeze.dims"},
		{T, "aten.t.default"},
	} {
		assert.Equal(t, tc.want, tc.op.String())
	}
	assert.True(t, ResizeInplace.Has(ops.Inplace))
}

// TestCoverage checks that the handles are exactly the core list and the
// conformance list, each operator once.
func TestCoverage(t *testing.T) {
	in := readInput(t)
	want := map[string]bool{}
	for _, line := range strings.Split(in.Core, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			want[ops.MustParseSchema(line).QualifiedName()] = true
		}
	}
	assert.Len(t, want, 187, "core opset")
	for _, line := range strings.Split(in.Conformance+"\n"+in.Programs, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			op, ok := ops.Global().Lookup(line)
			require.True(t, ok, line)
			want[op.Schema().QualifiedName()] = true
		}
	}
	got := map[string]bool{}
	for _, op := range All() {
		q := op.Schema().QualifiedName()
		assert.False(t, got[q], "%s twice", q)
		got[q] = true
	}
	assert.Equal(t, want, got)
}

// TestConformanceList checks that conformance_ops.txt names exactly the
// files of testdata/conformance, when the repository has them.
func TestConformanceList(t *testing.T) {
	files, err := filepath.Glob("../../testdata/conformance/*.jsonl")
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skip("no testdata/conformance in this checkout")
	}
	var want []string
	for _, f := range files {
		want = append(want, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
	}
	sort.Strings(want)
	var got []string
	for _, line := range strings.Split(readInput(t).Conformance, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			got = append(got, line)
		}
	}
	assert.Equal(t, want, got, "conformance_ops.txt is stale: list the testdata/conformance files and run go generate ./ops/aten")
}

// TestMustLookupFailure checks the message of a failed lookup.
func TestMustLookupFailure(t *testing.T) {
	assert.PanicsWithValue(t,
		"aten: operator aten::no_such_op is not in ops.Global(); aten.go is stale: run go generate ./ops/aten",
		func() { mustLookup("aten::no_such_op") })
}
