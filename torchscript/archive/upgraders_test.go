package archive_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gofx/gofx/torchscript/archive"
)

type upgraderFile struct {
	Torch      string `json:"torch"`
	MaxVersion int    `json:"max_operator_version"`
	Upgraders  []struct {
		Op        string `json:"op"`
		Before    int    `json:"before"`
		Name      string `json:"name"`
		OldSchema string `json:"old_schema"`
		Source    string `json:"source"`
	} `json:"upgraders"`
}

func readUpgraders(t *testing.T, path string) upgraderFile {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var f upgraderFile
	require.NoError(t, json.Unmarshal(b, &f))
	return f
}

// TestUpgraders checks the table against PyTorch's own (dumped by
// testdata/dump_upgraders.py from PyTorch 2.6 and 2.14).
func TestUpgraders(t *testing.T) {
	got := archive.Upgraders()
	byOp := map[string]archive.Upgrader{}
	for _, u := range got {
		byOp[u.Op] = u
		require.NotEmpty(t, u.Meaning, u.Op)
	}
	for _, file := range []string{"testdata/upgraders_2.6.json", "testdata/upgraders_2.14.json"} {
		f := readUpgraders(t, file)
		require.Equal(t, archive.MaxVersion, f.MaxVersion, "%s: the newest operator version", file)
		for _, w := range f.Upgraders {
			u, ok := byOp[w.Op]
			require.True(t, ok, "%s: %s missing", file, w.Op)
			require.Equal(t, w.Before, u.Before, w.Op)
			require.Equal(t, w.Name, u.Name, w.Op)
			require.Equal(t, w.OldSchema, u.OldSchema, w.Op)
			require.Equal(t, w.Source, u.Source, w.Op)
		}
		if f.Torch[:3] == "2.6" {
			require.Len(t, got, len(f.Upgraders))
		}
	}
}

func TestUpgraderFor(t *testing.T) {
	for _, c := range []struct {
		op      string
		version int
		name    string
	}{
		{"aten::div.Tensor", 3, "div_Tensor_0_3"},
		{"aten::div.Tensor", 4, ""},
		{"aten::div_.Scalar", 1, "div__Scalar_0_3"},
		{"aten::full", 4, "full_0_4"},
		{"aten::full", 5, ""},
		{"aten::linspace", 7, "linspace_0_7"},
		{"aten::linspace", 8, ""},
		{"aten::logspace.out", 8, "logspace_out_0_8"},
		{"aten::gelu.default", 9, "gelu_0_9"},
		{"aten::gelu", 10, ""},
		{"aten::add.Tensor", 1, ""},
	} {
		u, ok := archive.UpgraderFor(c.op, c.version)
		require.Equal(t, c.name != "", ok, "%s at %d", c.op, c.version)
		require.Equal(t, c.name, u.Name, "%s at %d", c.op, c.version)
	}
}

// TestVersionedArchives opens the archives PyTorch wrote at each version
// an upgrader marks: their code calls the operator that raised the
// version.
func TestVersionedArchives(t *testing.T) {
	for _, c := range []struct {
		file    string
		version int
		call    string
	}{
		{"div", 4, "torch.div("},
		{"full", 5, "torch.full("},
		{"linspace", 8, "torch.linspace("},
		{"logspace", 9, "torch.logspace("},
		{"gelu", 10, "torch.gelu("},
	} {
		a := mustOpen(t, "testdata/"+c.file+".script.pt")
		require.Equal(t, c.version, a.Version, c.file)
		f, ok := a.Source("__torch__")
		require.True(t, ok)
		require.Contains(t, f.Text, c.call)
	}
}
