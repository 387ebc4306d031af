// Package schema is torch.export's serialization schema
// (torch/_export/serde/schema.py) as Go types, with a strict JSON codec.
//
// A .pt2 file holds its program as JSON: serialized_exported_program.json
// in the zip PyTorch ≤ 2.7 writes, models/NAME.json in the PT2 archive of
// PyTorch ≥ 2.8 (package pt2/archive reads and writes both containers).
// The JSON is json.dumps of schema.py's dataclasses: fields in declaration
// order, a union (Argument, SymInt, InputSpec, OutputSpec, ...) as a one-key
// object such as {"as_tensor": {"name": "x"}}, enums as their ints. The
// types here carry every field of schema 8.x up to 8.20 (PyTorch 2.14);
// PyTorch 2.6 writes 8.2.
//
// In Go a union is a struct of pointer, slice or map fields of which
// exactly one is set; an Optional field is a pointer (or a slice, where
// nil is None); dicts are maps (written with keys in natural order, digit runs
// compared as numbers, so output is deterministic and symbols come out in
// PyTorch's order: s6 before s11).
//
// Decode is strict: an unknown field, an unknown union tag, a union with
// other than one key, an enum value schema.py does not define, a JSON value
// of the wrong type, a duplicate key or a major version other than 8 is an
// error naming the JSON path and the file's schema version. Missing fields
// take schema.py's defaults. Python's non-standard Infinity, -Infinity and
// NaN tokens are read (and written) as json.dumps does.
//
// Encode writes PyTorch's bytes for PyTorch's values, up to the order of
// dict keys: ", " and ": " separators, ASCII-only strings, floats in
// Python's repr. Two styles differ in what they omit (see Style): PyTorch
// ≤ 2.7 omits None for fields whose default is None and does not know the
// fields added after 8.2, so a program marked 8.0–8.2 is written in that
// legacy style, any later one in the current style. ExportedProgram.Legacy
// turns a newer program into 8.2's form (PyTorch 2.6 runs 2.14's programs
// so converted).
package schema
