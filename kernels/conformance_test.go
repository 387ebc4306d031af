package kernels_test

import (
	"flag"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/conformance"
	_ "github.com/gofx/gofx/kernels"
)

var conformanceDir = flag.String("conformance", "../testdata/conformance", "directory of conformance *.jsonl files")

// TestConformance runs every conformance case (a copy of
// ../shared/conformance, recorded from PyTorch 1.13) through the dispatch
// point, one subtest per op overload file.
func TestConformance(t *testing.T) {
	files, byFile := casesByFile(t, *conformanceDir)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			for _, c := range byFile[f] {
				if r := conformance.Run(c); !r.Passed() {
					t.Error(r)
				}
			}
		})
	}
}

// metaUnsupported lists the overloads whose output shape depends on input
// data, so that no meta function can compute it.
var metaUnsupported = map[string]string{
	"aten.index.Tensor":                            "bool/uint8 mask indices have a data-dependent output shape",
	"aten.nonzero.default":                         "the number of nonzero elements is data",
	"aten._local_scalar_dense.default":             "it returns a number read from the data",
	"aten.item.default":                            "it returns a number read from the data",
	"aten.repeat_interleave.Tensor":                "the output length is the sum of the repeats",
	"aten.repeat_interleave.self_Tensor":           "the output length is the sum of the repeats",
	"aten.bincount.default":                        "the output length is the largest value plus one",
	"aten.argwhere.default":                        "the number of nonzero elements is data",
	"aten._unique.default":                         "the number of distinct elements is data",
	"aten._unique2.default":                        "the number of distinct elements is data",
	"aten.unique_dim.default":                      "the number of distinct slices is data",
	"aten.unique_dim_consecutive.default":          "the number of runs is data",
	"aten.nonzero_numpy.default":                   "the number of nonzero elements is data",
	"aten.masked_select.default":                   "the number of true mask elements is data",
	"aten.tensor_split.tensor_indices_or_sections": "the sections or indices are data",
	"aten.unique_consecutive.default":              "the number of runs is data",
	"aten._choose_qparams_per_tensor.default":      "it returns numbers computed from the data",
}

// casesByFile groups the cases of dir by op overload file, in name order.
func casesByFile(t *testing.T, dir string) ([]string, map[string][]*conformance.Case) {
	cases, err := conformance.ReadDir(dir)
	require.NoError(t, err)
	byFile := map[string][]*conformance.Case{}
	for _, c := range cases {
		f, _, _ := strings.Cut(c.ID, "/")
		byFile[f] = append(byFile[f], c)
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	return files, byFile
}

// TestMetaConformance runs every conformance case again with its tensor
// arguments replaced by meta tensors: the meta function must produce the
// recorded output dtypes and shapes without data.
func TestMetaConformance(t *testing.T) {
	files, byFile := casesByFile(t, *conformanceDir)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			if why, skip := metaUnsupported[f]; skip {
				t.Skipf("data-dependent output shape: %s", why)
			}
			for _, c := range byFile[f] {
				if err := conformance.RunMeta(c); err != nil {
					t.Errorf("%s: %v", c.ID, err)
				}
			}
		})
	}
}

// TestConformanceExtra runs the cases of testdata/extra: more cases in the
// same format, generated with PyTorch 1.13 by the scripts beside them, for
// corners the shared vectors do not reach.
func TestConformanceExtra(t *testing.T) {
	if _, err := os.Stat("testdata/extra"); err != nil {
		t.Skip("no testdata/extra")
	}
	files, byFile := casesByFile(t, "testdata/extra")
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			for _, c := range byFile[f] {
				if r := conformance.Run(c); !r.Passed() {
					t.Error(r)
				}
			}
		})
	}
}

// TestMetaConformanceExtra runs the cases of testdata/extra on meta
// tensors, for the operators that have no shared vectors.
func TestMetaConformanceExtra(t *testing.T) {
	if _, err := os.Stat("testdata/extra"); err != nil {
		t.Skip("no testdata/extra")
	}
	files, byFile := casesByFile(t, "testdata/extra")
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			if why, skip := metaUnsupported[f]; skip {
				t.Skipf("data-dependent output shape: %s", why)
			}
			for _, c := range byFile[f] {
				if err := conformance.RunMeta(c); err != nil {
					t.Errorf("%s: %v", c.ID, err)
				}
			}
		})
	}
}
