package models

import (
	"fmt"
	"sort"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/nn"
)

// Spec describes one zoo model.
type Spec struct {
	// Name is the zoo name ("resnet18"), the prefix of its reference files.
	Name string
	// New builds the model with fresh (not PyTorch's) weights.
	New func() nn.Module
	// Tol is the absolute tolerance of its outputs against PyTorch's.
	Tol float64
	// Notes says where the Go model's traced graph differs from torch.fx's
	// record and why (empty when node counts are equal).
	Notes string
	// Dynamic, if set, returns the dynamic dimensions the "export" and
	// "decomposed" pipelines export the model with (nil: all static).
	Dynamic func() export.Dims
}

var zoo = map[string]*Spec{}

func register(s *Spec) {
	if s.Tol == 0 {
		s.Tol = 1e-4
	}
	zoo[s.Name] = s
}

// Lookup returns the spec of the zoo model called name.
func Lookup(name string) (*Spec, error) {
	s, ok := zoo[name]
	if !ok {
		return nil, fmt.Errorf("models: no model %q (have: %v)", name, Names())
	}
	return s, nil
}

// Names returns the zoo's model names, sorted.
func Names() []string {
	out := make([]string, 0, len(zoo))
	for k := range zoo {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// New builds the zoo model called name, in evaluation mode.
func New(name string) (nn.Module, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	m := s.New()
	if err := nn.Err(m); err != nil {
		return nil, err
	}
	return nn.Eval(m), nil
}
