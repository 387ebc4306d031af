package kernels_test

import (
	"flag"
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
	cases, err := conformance.ReadDir(*conformanceDir)
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
var metaUnsupported = map[string]string{}

// TestMetaConformance runs every conformance case again with its tensor
// arguments replaced by meta tensors: the meta function must produce the
// recorded output dtypes and shapes without data.
func TestMetaConformance(t *testing.T) {
	cases, err := conformance.ReadDir(*conformanceDir)
	require.NoError(t, err)
	for _, c := range cases {
		f, _, _ := strings.Cut(c.ID, "/")
		if why, skip := metaUnsupported[f]; skip {
			t.Logf("skipped %s: %s", c.ID, why)
			continue
		}
		if err := conformance.RunMeta(c); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
	}
}
