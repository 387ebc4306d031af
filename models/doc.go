// Package models is gofx's model zoo in Go: mlp, convnet, attention,
// resnet18 and the torch.fx / torch.export documentation examples, written
// like their Python sources in ../shared/models/README.md, with PyTorch's
// parameter names so that the zoo's state dicts load unchanged.
//
// Check runs a model on the inputs of an io.json file through each
// pipeline (eager; trace = fx.SymbolicTrace then the interpreter) and
// compares with PyTorch's recorded outputs; `gofx check` is its command.
package models
