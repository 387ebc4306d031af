// Command gen writes ops/aten/aten.go, the operator handles of package
// aten. go generate runs it in ops/aten, where its default paths point:
//
//	go generate ./ops/aten
//
// It reads the core schema list, the schema lists of PyTorch 1.13, 2.6
// and 2.14, the conformance operator list and the list of the operators
// the PyTorch 2.x programs of ../shared/pt2 call, and fails without writing anything when two
// operators would get the same Go name or a listed operator has no schema.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gofx/gofx/ops/aten/internal/atengen"
)

func main() {
	core := flag.String("core", "../schemas/core_schemas.txt", "the core schema list")
	all := flag.String("all", "../schemas/all_schemas_1.13.txt", "the PyTorch 1.13 schema list")
	newer := flag.String("newer", "../schemas/versions_2.x.txt", "the PyTorch 2.6 and 2.14 schema list")
	programs := flag.String("programs", "program_ops.txt", "the operators of the PyTorch 2.x programs")
	conf := flag.String("conformance", "conformance_ops.txt", "the conformance operator list")
	out := flag.String("o", "aten.go", "the output file")
	flag.Parse()
	if err := run(*core, *all, *newer, *conf, *programs, *out); err != nil {
		fmt.Fprintln(os.Stderr, "atengen:", err)
		os.Exit(1)
	}
}

// run reads the lists and writes the generated source to out.
func run(core, all, newer, conf, programs, out string) error {
	var in atengen.Input
	for _, f := range []struct {
		path string
		dst  *string
	}{{core, &in.Core}, {all, &in.All}, {newer, &in.Newer}, {conf, &in.Conformance}, {programs, &in.Programs}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		*f.dst = string(b)
	}
	src, err := atengen.Generate(in)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}
