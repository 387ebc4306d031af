package kernels

import (
	"fmt"

	"github.com/gofx/gofx/ops"
)

// A family is the kernels of one file of this package, named after the
// ATen source file that holds the same operators.
type family struct {
	file     string // the file of this package, "activation.go"
	register func() // registers the family's kernels and meta functions
}

// families are registered by init in this order. No operator is registered
// by two families (register panics if one is), so the order matters only
// for the derived variants, which come after every family: the in-place and
// out= overloads computed by a functional overload, derived for those whose
// functional overload has a kernel.
var families = []family{
	{"unary_ops.go", registerUnaryOps},
	{"activation.go", registerActivation},
	{"binary_ops.go", registerBinaryOps},
	{"pow.go", registerPow},
	{"lerp.go", registerLerp},
	{"pointwise_ops.go", registerPointwiseOps},
	{"tensor_compare.go", registerTensorCompare},
	{"reduce_ops.go", registerReduceOps},
	{"softmax.go", registerSoftmax},
	{"sorting.go", registerSorting},
	{"tensor_factories.go", registerTensorFactories},
	{"tensor_conversions.go", registerTensorConversions},
	{"copy.go", registerCopy},
	{"fill.go", registerFill},
	{"tensor_properties.go", registerTensorProperties},
	{"resize.go", registerResize},
	{"scalar.go", registerScalar},
	{"tensor_shape.go", registerTensorShape},
	{"tensor_transformations.go", registerTensorTransformations},
	{"padding.go", registerPadding},
	{"indexing.go", registerIndexing},
	{"linear_algebra.go", registerLinearAlgebra},
	{"linear.go", registerLinear},
	{"convolution.go", registerConvolution},
	{"col2im.go", registerCol2im},
	{"pooling.go", registerPooling},
	{"upsample.go", registerUpsample},
	{"grid_sampler.go", registerGridSampler},
	{"embedding.go", registerEmbedding},
	{"embedding_bag.go", registerEmbeddingBag},
	{"distance.go", registerDistance},
	{"normalization.go", registerNormalization},
	{"layer_norm.go", registerLayerNorm},
	{"group_norm.go", registerGroupNorm},
	{"dropout.go", registerDropout},
	{"rnn.go", registerRNN},
	{"quantized.go", registerQuantized},
	{"constraints.go", registerConstraints},
	{"triangular.go", registerTriangular},
	{"attention.go", registerAttention},
	{"loss.go", registerLoss},
	{"pixel_shuffle.go", registerPixelShuffle},
	{"onehot.go", registerOnehot},
	{"search.go", registerSearch},
	{"shape_helpers.go", registerShapeHelpers},
	{"norm.go", registerNorm},
	{"contraction.go", registerContraction},
	{"batch_linear_algebra.go", registerBatchLinearAlgebra},
	{"special.go", registerSpecial},
	{"integration.go", registerIntegration},
	{"rnn_seq.go", registerRNNSeq},
	{"max_pooling.go", registerMaxPooling},
	{"upsample_aa.go", registerUpsampleAA},
	{"random.go", registerRandom},
	{"windows.go", registerWindows},
	{"quantized_pt2e.go", registerQuantizedPT2E},
	{"fused.go", registerFused},
	// aliases.go comes last: it registers an alias only when its target
	// has a kernel.
	{"aliases.go", registerAliases},
}

// The package's only init: every family, in order, then the error kernels
// of the named-tensor overloads no family implements, then the derived
// variants.
func init() {
	for _, f := range families {
		registering = f.file
		f.register()
	}
	registering = "names.go"
	registerNames()
	registering = "derived.go"
	registerDerived()
	registering = ""
}

// An origin says where an operator's kernel comes from: the file of its
// family, and for a derived in-place or out= kernel the functional
// overload it calls.
type origin struct {
	file        string
	derivedFrom *ops.Operator
}

var (
	// registering is the file of the family being registered.
	registering string
	// origins records the origin of every kernel this package installs,
	// for the table of KERNELS.md.
	origins = map[*ops.Operator]origin{}
)

// op returns a registered operator of the global registry; a missing one is
// a bug in this package, reported at init.
func op(name string) *ops.Operator {
	o, ok := ops.Global().Lookup(name)
	if !ok {
		panic(fmt.Sprintf("kernels: no operator %s in the registry", name))
	}
	return o
}

// register installs kernel and meta for the operator called name. An
// operator registered twice is a bug in this package, reported at init.
func register(name string, kernel, meta ops.Kernel) {
	o := op(name)
	if _, ok := origins[o]; ok || o.HasKernel() {
		panic(fmt.Sprintf("kernels: %s registered twice", name))
	}
	origins[o] = origin{file: registering}
	o.SetKernel(guardWrites(o, kernel))
	if meta != nil {
		o.SetMeta(meta)
	}
}

// registerBoth installs one function as both kernel and meta function: it
// must check t.IsMeta() (through the helpers) before touching data. Most
// view and shape kernels work on meta tensors unchanged.
func registerBoth(name string, k ops.Kernel) { register(name, k, k) }
