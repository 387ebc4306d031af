// Package decomp decomposes composite ATen operators into core ATen, the
// operator set exported programs hold.
//
// A decomposition is a Rule: a Go function over nn.Values that computes an
// operator's result with other operators, written after PyTorch 1.13's own
// (ATen's CompositeImplicitAutograd C++ and torch/_decomp). Because rules
// compute with Values, the same rule runs eagerly on tensors (Call, which
// the numerical tests use) and records nodes when its arguments are
// symbolic: Decompose traces rules into a graph in place of the nodes they
// decompose, and an exporter can run them under its own tracer.
//
// Core is the table composite -> core ATen (rules_math.go adds the math
// operators that PyTorch 2.6's core_aten_decompositions decomposes:
// deg2rad, rad2deg, isposinf, isneginf, sinc, soft_margin_loss, nansum;
// rules_derive.go logaddexp, logaddexp2, addr, addmv, diag_embed, the
// losses binary_cross_entropy, mse_loss, l1_loss, huber_loss,
// smooth_l1_loss, hinge_embedding_loss and kl_div, linalg_vector_norm and
// the norm overloads, which PyTorch 2.6 keeps as linalg_vector_norm, a core
// operator there but not in gofx's core set; rules_15r.go logsumexp,
// special_logsumexp, isin, kron, tensordot, trapezoid, block_diag and the
// losses margin_ranking_loss, poisson_nll_loss, cosine_embedding_loss,
// triplet_margin_loss and multi_margin_loss; rules_einsum.go einsum, to
// diagonal, permute, sum, view and bmm as ATen's einsum computes it); Extra decomposes some core
// operators further, as 1.13's decomposition list did for the reference
// graphs of the model zoo (../shared/models/*.aten.json). Core also
// decomposes gofx's fused operators (rules_fused.go: gofx::convolution_relu
// and the others passes.FuseEpilogues makes) back to the aten operators
// they replaced; FusedOps is the table of those rules alone. Verify checks
// that a graph holds core ATen only and lists every node that does not.
//
// Rules that depend on memory layout (reshape, matmul, linear) read
// strides through MetaTracer when the tracer provides them and assume
// contiguous tensors otherwise. Decompose works on static shapes; a val
// with a symbolic dim is reported as an error.
//
// Decompose records through the recorder that fx and export use (package
// internal/record) with its own policy: apply the table, give every new
// node a meta-tensor val from the operator's meta function and the
// replaced node's stack_trace and nn_module_stack, and refuse tensor
// methods, module calls and tensor constants in rules. A rule that
// branches on tensor data fails with an *fx.TraceError.
package decomp
