// Package models is gofx's model zoo in Go: mlp, convnet, attention,
// resnet18, the torch.fx documentation's MyModule (fx_doc_mymodule) and the
// torch.export documentation's examples (export_doc_f, export_doc_conv,
// export_doc_branches, export_doc_mutation), written like their Python
// sources in ../shared/models/README.md, with PyTorch's parameter names so
// that the zoo's state dicts load unchanged. New builds a model by its zoo
// name and Names lists them; each has a Spec (tolerance, the dynamic
// dimensions it is exported with).
//
// Check runs a model on the inputs of an io.json file (ReadIO) through each
// of the Pipelines and compares with PyTorch's recorded outputs: eager;
// trace (fx.SymbolicTrace, then the interpreter); export (export.Export
// with the Spec's dynamic dimensions, then the ExportedProgram); decomposed
// (export, then RunDecompositions(decomp.Extra())); optimized (export,
// then passes.Optimize over the program's module). `gofx check` is its
// command.
package models
