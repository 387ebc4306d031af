package torchio

import (
	"fmt"
	"iter"

	"github.com/gofx/gofx/tensor"
)

// StateDict is an ordered list of uniquely named tensors, as
// torch.nn.Module.state_dict returns. The zero value is an empty StateDict
// ready to use.
type StateDict struct {
	names   []string
	tensors []*tensor.Tensor
	index   map[string]int
}

// NewStateDict returns an empty StateDict.
func NewStateDict() *StateDict { return &StateDict{} }

// Len returns the number of entries.
func (sd *StateDict) Len() int { return len(sd.names) }

// Names returns the names in order.
func (sd *StateDict) Names() []string { return append(make([]string, 0, len(sd.names)), sd.names...) }

// Get returns the tensor named name.
func (sd *StateDict) Get(name string) (*tensor.Tensor, bool) {
	i, ok := sd.index[name]
	if !ok {
		return nil, false
	}
	return sd.tensors[i], true
}

// Set stores t under name: an existing entry keeps its position, a new one
// goes last. It panics if t is nil.
func (sd *StateDict) Set(name string, t *tensor.Tensor) {
	if t == nil {
		panic(fmt.Sprintf("torchio: Set(%q, nil)", name))
	}
	if sd.index == nil {
		sd.index = map[string]int{}
	}
	if i, ok := sd.index[name]; ok {
		sd.tensors[i] = t
		return
	}
	sd.index[name] = len(sd.names)
	sd.names = append(sd.names, name)
	sd.tensors = append(sd.tensors, t)
}

// Delete removes the entry named name, if any, keeping the others' order.
func (sd *StateDict) Delete(name string) {
	i, ok := sd.index[name]
	if !ok {
		return
	}
	sd.names = append(sd.names[:i], sd.names[i+1:]...)
	sd.tensors = append(sd.tensors[:i], sd.tensors[i+1:]...)
	delete(sd.index, name)
	for j := i; j < len(sd.names); j++ {
		sd.index[sd.names[j]] = j
	}
}

// All iterates over the entries in order.
func (sd *StateDict) All() iter.Seq2[string, *tensor.Tensor] {
	return func(yield func(string, *tensor.Tensor) bool) {
		for i, n := range sd.names {
			if !yield(n, sd.tensors[i]) {
				return
			}
		}
	}
}
