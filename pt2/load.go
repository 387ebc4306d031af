package pt2

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/tensor"
)

// DefaultModel is the name torch.export.save gives the one program of a
// file.
const DefaultModel = "model"

// Load reads the .pt2 file at path, in either container (PyTorch ≤ 2.7's
// zip or ≥ 2.8's PT2 archive), and returns its program as
// torch.export.load does: the one model of the file, or the model named
// "model" of an archive holding several (LoadModel picks another).
func Load(path string) (*export.ExportedProgram, error) { return LoadModel(path, "") }

// LoadModel is Load for the model called name of a PT2 archive holding
// several ("": the default).
func LoadModel(path, name string) (*export.ExportedProgram, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	ep, err := ReadModel(f, st.Size(), name)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return ep, nil
}

// Read reads a .pt2 file of size bytes from r, as Load does.
func Read(r io.ReaderAt, size int64) (*export.ExportedProgram, error) {
	return ReadModel(r, size, "")
}

// ReadModel is Read for the model called name ("": the default).
func ReadModel(r io.ReaderAt, size int64, name string) (*export.ExportedProgram, error) {
	a, err := archive.Read(r, size)
	if err != nil {
		return nil, err
	}
	return FromArchive(a, name)
}

// FromArchive returns the program of the model called name of a read
// archive ("": the only model, or the one named "model").
func FromArchive(a *archive.Archive, name string) (*export.ExportedProgram, error) {
	m, err := pick(a, name)
	if err != nil {
		return nil, err
	}
	state := map[string]*tensor.Tensor{}
	for _, w := range m.Weights {
		state[w.Name] = w.Tensor
	}
	consts := map[string]*tensor.Tensor{}
	for _, c := range m.Constants {
		if c.Tensor != nil {
			consts[c.Name] = c.Tensor
		}
	}
	ep, err := FromSchema(m.Program, state, consts)
	if err != nil && len(a.Models) > 1 {
		return nil, fmt.Errorf("%w (model %s)", err, m.Name)
	}
	return ep, err
}

// Models returns the names of the models of the .pt2 file at path.
func Models(path string) ([]string, error) {
	a, err := archive.Load(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range a.Models {
		out = append(out, m.Name)
	}
	return out, nil
}

func pick(a *archive.Archive, name string) (*archive.Model, error) {
	var names []string
	for _, m := range a.Models {
		names = append(names, m.Name)
	}
	if name != "" {
		if m := a.Model(name); m != nil {
			return m, nil
		}
		return nil, fmt.Errorf("pt2: no model %q in the archive (models: %s)", name, strings.Join(names, ", "))
	}
	switch {
	case len(a.Models) == 1:
		return a.Models[0], nil
	case a.Model(DefaultModel) != nil:
		return a.Model(DefaultModel), nil
	case len(a.Models) == 0:
		return nil, fmt.Errorf("pt2: the archive holds no model")
	}
	return nil, fmt.Errorf("pt2: the archive holds %d models (%s) and none is named %q: pick one with LoadModel", len(names), strings.Join(names, ", "), DefaultModel)
}
