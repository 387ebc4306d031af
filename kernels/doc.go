// Package kernels registers gofx's reference CPU kernels and meta functions
// with the operators of the ops registry, from one init function. It is the
// one CPU backend: package nn imports it, so model code and everything built
// on nn runs operators without further imports; a program that uses only
// ops, node and graph imports it to make ops.Operator.Call run ATen
// operators on tensors:
//
//	import _ "github.com/gofx/gofx/kernels"
//
// Every kernel computes what PyTorch 1.13 computes on CPU: the same output
// dtypes (type promotion), shapes (broadcasting) and values, within the
// tolerances of the conformance vectors in ../shared/conformance, which the
// package's tests run. Floating-point math is done in float64 and rounded
// to the output dtype (which for +, -, *, / and sqrt gives exactly IEEE
// float32 arithmetic); float16 and bfloat16 compute in float32, as PyTorch
// does on CPU; integer math is exact in int64 and wraps to narrower types.
// The memory-bound float32/float64 hot paths compute in the dtype where
// one IEEE operation gives the same result: add, sub, mul, div, relu and
// hardtanh run internal/vec's vector loops (AVX2 where the CPU has it)
// over TensorIterator-style coalesced runs (tensor_iterator.go's
// planRuns); sum, mean, softmax and batch norm read contiguous inputs in
// place with typed row loops, with float64 accumulation as before (over
// leading or middle dims, whole rows folded into an output row: sums by
// internal/vec's AddWiden, amax/amin by MaxFold and minFold); 2-d
// max and average pooling fold whole output rows tap by tap over
// stride-phased contiguous runs (pooling_rows.go, internal/vec's MaxFold),
// bilinear upsampling interpolates each source row once and combines rows
// with vector loops, and adaptive pooling (pooling_rows.go) sums
// eight planes' windows side by side in ATen's order and takes maxima
// from column folds of each window's rows, all bit for bit as the
// one-window-at-a-time loops they replace.
// For float32, layer_norm, group_norm, softmax/log_softmax, amax/amin,
// max.dim/min.dim/argmax/argmin, exp, sigmoid and silu compute in float32
// as ATen's vectorised CPU kernels do (statistics and sums accumulated in
// float64, internal/vec's Exp within one ulp of e^x), within the
// conformance tolerances of the float64 path's results. softmax and
// log_softmax take three passes over a last-dim row (the max; e^(x-m)
// written while summed, or only summed; the scale or the subtractions),
// and along another dim of a contiguous input run the same steps down
// blocks of columns with vector loops across them, without transposing.
//
// Meta functions compute the dtype and shape of the outputs from meta
// tensors (tensor.NewMeta), touching no data; they share their shape logic
// with the kernels.
//
// # Layout
//
// The kernels are grouped in families, one file per family, named after the
// ATen source file (aten/src/ATen/native/*.cpp) that holds the same
// operators: activation.go (Activation.cpp), unary_ops.go, binary_ops.go,
// pow.go, lerp.go, pointwise_ops.go, tensor_compare.go, reduce_ops.go,
// softmax.go, sorting.go (with kthvalue, median, mode, quantile
// and the cummax/logcumsumexp scans), tensor_factories.go, windows.go (the
// window functions, tril/triu_indices, vander, range), tensor_conversions.go,
// copy.go, fill.go, tensor_properties.go, resize.go, scalar.go,
// tensor_shape.go, tensor_transformations.go, padding.go, indexing.go
// (TensorAdvancedIndexing.cpp), linear_algebra.go, linear.go,
// convolution.go, col2im.go, pooling.go (its row loops in
// pooling_rows.go), max_pooling.go (MaxPooling.cpp,
// AdaptiveMaxPooling*.cpp, MaxUnpooling.cpp, FractionalMaxPool*.cpp),
// upsample.go, upsample_aa.go (UpSampleKernel.cpp's anti-aliased
// separable resampling: bilinear, bicubic, and 2.14's lanczos), grid_sampler.go,
// embedding.go, embedding_bag.go, distance.go, normalization.go,
// layer_norm.go, group_norm.go, dropout.go (and rrelu), random.go
// (Distributions.cpp: the random operators, drawing from a Generator that
// reproduces PyTorch's CPU generator, so that ManualSeed(s) and the same
// calls give torch.manual_seed(s)'s values), rnn.go (RNN.cpp: the
// recurrent cells), rnn_seq.go (RNN.cpp's full-sequence lstm, gru,
// rnn_tanh and rnn_relu over layers and directions, padded or packed),
// fused.go (gofx's own fused operators, ops/schemas/gofx.txt:
// gofx::convolution_relu, convolution_hardtanh, convolution_clamp,
// convolution_add_relu through convolutionEpilogue, addmm_relu and
// linear_relu through internal/gemm's epilogue), quantized_pt2e.go (the PT2E choose_qparams, per-token and
// per-channel-group helpers), quantized.go (native/quantized: fake
// quantization; gofx has no quantized dtypes, so the ops returning a quantized tensor
// fail with an error that says so), constraints.go (Constraints.cpp and
// the assertions of TensorCompare.cpp: the runtime checks torch.export
// programs keep), triangular.go (TriangularOps.cpp), attention.go
// (transformers/attention.cpp: scaled_dot_product_attention), loss.go
// (Loss.cpp, LossNLL.cpp and the margin losses), pixel_shuffle.go
// (PixelShuffle.cpp), onehot.go (Onehot.cpp), search.go
// (Bucketization.cpp, SummaryOps.cpp, Unique.cpp: searchsorted, bucketize,
// histc, bincount, isin, count_nonzero, argwhere, nonzero_static, the
// unique family), shape_helpers.go (the composite shape functions models
// call by name: atleast_Nd, tensor_split, hsplit, meshgrid, rot90, kron,
// unfold, ...), norm.go (the norms of several ATen files:
// linalg_vector_norm, norm, the matrix norms through gonum's SVD, renorm,
// weight norm, cosine_similarity, pairwise_distance), contraction.go (the
// contractions of Linear.cpp and LinearAlgebra.cpp: einsum, tensordot,
// inner, addmv, addr, cross, multi_dot, matrix_power),
// batch_linear_algebra.go (BatchLinearAlgebra.cpp: the LU-based
// determinants and inverses), special.go (the pointwise special functions
// of Math.h: digamma, polygamma, lgamma, erfinv, the Bessel functions,
// ndtr, ...; and the elementwise math 2.x adds: logaddexp, fmax, gcd, the
// bit shifts, isclose, frexp, nansum, ...) and aliases.go: one table of
// the operators PyTorch registers as aliases of others (absolute, arccos,
// greater, divide, concat, special_expit, ...), which forward to their
// target. Many operators that ATen implements as
// composite functions (stack, chunk, std, logsumexp, prelu, rms_norm,
// cross_entropy_loss, ...) compose registered operators the same way
// (chain in helpers.go), so their values round as PyTorch's do and their
// meta functions come with them.
//
// The registry holds PyTorch 2.6's and 2.14's operators beside 1.13's;
// the kernels of operators 1.13 lacks follow PyTorch 2.6, and their
// vectors (testdata/extra/gen_pt2x.py) were made with it. A backward kernel lives
// beside its forward (convolution_backward in convolution.go). Each family
// file opens with its register function; its tests are in the _test.go
// file of the same name.
//
// The shared machinery has files of its own: register.go (the family
// table, the one init, register and registerBoth), tensor_iterator.go
// (broadcasting, the elementwise maps and the coalesced runs), blas.go (matrix
// multiplication, through internal/gemm for floats: operands used in place
// when row- or column-major, outputs from EmptyUninit, and addmm's and
// linear's bias, when a row or a column repeated, added in the GEMM's
// final stores), parallel.go (parallelFor), dtype.go (compute dtypes,
// rounding and dtype names for errors), helpers.go and derived.go.
//
// gofx has no named tensors: names.go gives every named-tensor (Dimname)
// overload no family implements (softmax.Dimname, sum.dim_DimnameList,
// zeros.names, rename, ...) a kernel and a meta function that fail with an
// error naming the operator and saying that named tensors are unsupported.
//
// # Registration order
//
// The package has one init function, in register.go. It registers the
// families in the order of its families table, then the named-tensor
// error kernels (names.go), then derives the variants
// (derived.go): the out= overloads (atan2.out, kthvalue.values with its
// values and indices, ...) and the in-place overloads (add_, relu_, ...)
// that have no kernel of their own get a kernel that calls their
// functional overload and writes its result, when that overload has a
// kernel (an out= tensor of another shape is resized as ATen's
// resize_output does, and its dtype is checked with the operator's
// PyTorch message; an out= list such as split_copy.Tensor_out's gets each
// result copied in, as ATen's generated wrappers do); and the *_copy forms of the view operators (view_copy,
// permute_copy, ...) call their view operator and copy its result. An
// operator registered by two families panics at init, so the order of the
// families does not change what is registered.
//
// KERNELS.md, generated by TestKernelTable (go test ./kernels -run
// TestKernelTable -update), lists every operator with a kernel or a meta
// function, and every core operator, with the file of its family, whether
// it has a kernel and a meta function, and the overload a derived variant
// calls.
package kernels
