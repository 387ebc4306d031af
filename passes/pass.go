package passes

import (
	"fmt"

	"github.com/gofx/gofx/fx"
)

// A Pass is one named transformation of a GraphModule.
//
// Run edits gm in place (its Graph, and its module tree where the pass
// folds state, as conv/batch-norm fusion does) and reports whether it
// changed anything. A pass that fails returns an error naming itself and
// the node it could not handle; it must not leave gm half-rewritten in a
// state that fails Lint.
type Pass struct {
	// Name identifies the pass in reports and in other passes' Requires
	// ("dce", "cse", "fuse_conv_bn").
	Name string
	// Doc says in one line what the pass does.
	Doc string
	// Requires names passes that must have run earlier in the same
	// pipeline (a Manager refuses a pipeline that does not satisfy it).
	Requires []string
	// Run applies the pass.
	Run func(gm *fx.GraphModule) (changed bool, err error)
}

// String returns the pass's name.
func (p Pass) String() string { return p.Name }

// Apply runs p on gm, checking that p is well formed and wrapping its error
// with its name. A panic inside Run comes back as an error naming the pass.
// With Apply a Pass is an export.Pass: ep.Transform(passes.FoldConvBN)
// runs it on an exported program.
//
// Apply reaches into the graphs of higher-order operators: Run runs first
// on every GraphModule that a cond, while_loop or map_impl node of gm
// calls (read by a get_attr node; nested ones first), then on gm, so DCE,
// CSE, constant folding, dropout removal and the fusions rewrite branch
// and body graphs too. Each run sees one graph: a pattern matches inside
// a branch and never across its boundary.
func (p Pass) Apply(gm *fx.GraphModule) (changed bool, err error) {
	if p.Run == nil {
		return false, fmt.Errorf("passes: pass %q has no Run function", p.Name)
	}
	if gm == nil || gm.Graph == nil {
		return false, fmt.Errorf("passes: pass %q: nil GraphModule", p.Name)
	}
	defer func() {
		if r := recover(); r != nil {
			changed, err = true, fmt.Errorf("passes: pass %q panicked: %v", p.Name, r)
		}
	}()
	changed, err = runDeep(p.Run, gm, 0)
	if err != nil {
		return changed, fmt.Errorf("passes: pass %q: %w", p.Name, err)
	}
	return changed, nil
}
