package pt2_test

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofx/gofx/internal/optest"
	"github.com/gofx/gofx/pt2"
	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/tensor"
)

// FuzzLoad reads arbitrary bytes as a .pt2 file (seeded with the testdata
// programs, 2.6's zip container, and their program JSON alone): no input
// panics or hangs, and what loads prints and runs its checks without
// panicking.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pt2")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	optest.ScaledSoftplus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		ep, err := pt2.Read(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		_ = ep.String()
		_, _ = ep.RunFlat()
	})
}

// FuzzFromSchema feeds arbitrary program JSON (seeded with the testdata
// programs' serialized_exported_program.json) through schema.Decode and
// FromSchema with the testdata state: no input panics; errors name what
// was wrong.
func FuzzFromSchema(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pt2")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			f.Fatal(err)
		}
		for _, zf := range zr.File {
			if strings.HasSuffix(zf.Name, "serialized_exported_program.json") {
				rc, err := zf.Open()
				if err != nil {
					f.Fatal(err)
				}
				js, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(js)
			}
		}
	}
	optest.ScaledSoftplus(f)
	state := map[string]*tensor.Tensor{}
	f.Fuzz(func(t *testing.T, js []byte) {
		p, err := schema.Decode(js)
		if err != nil {
			return
		}
		ep, err := pt2.FromSchema(p, state, state)
		if err != nil {
			return
		}
		_ = ep.String()
	})
}
