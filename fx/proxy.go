package fx

import "github.com/gofx/gofx/internal/record"

// Proxy stands for a value computed by the program being traced: model
// code receives Proxies (inside nn.Values) instead of tensors, and every
// operation on them records a node instead of computing. Its methods are
// Node (the node it stands for), Tracer (the recorder it belongs to) and
// String ("Proxy(name)").
//
// A Proxy for one element of an operator's tuple result (aten::topk's
// values) is lazy: its operator.getitem node is created only when the
// element is used (Node), and a tuple of all the elements in order is
// recorded as the operator's node itself, as torch.fx records
// `return torch.topk(x, 3)`.
//
// It is the one proxy type of gofx's tracers: export's tracer and decomp's
// rule tracing hand out the same type (their recorders keep fake values
// with it).
type Proxy = record.Proxy
