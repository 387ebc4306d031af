package runtime

// The reference CPU kernels register with the ops registry on import:
// every tensor operator a graph calls runs through them.
import _ "github.com/gofx/gofx/kernels"
