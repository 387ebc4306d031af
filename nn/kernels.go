package nn

// Model code runs on the reference kernels: importing nn registers them.
import _ "github.com/gofx/gofx/kernels"
