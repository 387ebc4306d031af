// Package archive reads and writes the containers of torch.export's .pt2
// files, in both layouts PyTorch has used.
//
// PyTorch ≤ 2.7 (LayoutZip) writes a plain zip: the program as
// serialized_exported_program.json (see package pt2/schema), the state dict,
// the constants and the example inputs as three nested torch.save files
// (serialized_state_dict.pt, serialized_constants.pt,
// serialized_example_inputs.pt), the schema version in "version", and
// extra_files/NAME. PyTorch ≥ 2.8 (LayoutPT2) writes the PT2 archive: every
// record under a root folder named after the file, archive_format ("pt2"),
// archive_version ("0"), .data/version, byteorder, one models/NAME.json per
// program, weights as raw storage bytes data/weights/weight_<i> described
// by data/weights/NAME_weights_config.json (schema.PayloadConfig: record,
// is_param, use_pickle, tensor metadata), constants likewise under
// data/constants/ (tensor_<i>, custom objects as custom_obj_<i>), sample
// inputs in data/sample_inputs/NAME.pt (torch.save), extra/NAME. The first
// PT2 archives stored weights and constants as torch.save files
// data/weights/NAME.pt and data/constants/NAME.pt; Read takes those too.
//
// Layout names the container generation; it is also pt2.Format. Its
// String is "legacy" or "archive" (the names gofx export -format takes),
// which ParseLayout reads back.
//
// Read detects the layout and returns an Archive: per Model, the decoded
// program, the weights (with is_param and requires_grad), the constants,
// and the example inputs as the tree torchio.ReadValue returns (normally a
// tuple of an args tuple and a kwargs dict; Model.Args splits it). Tensors
// that shared a storage in the file share one here (tied weights, views):
// raw records shared by several config entries are read once and viewed
// with each entry's sizes, strides and offset.
//
// Write writes an Archive in its Layout, deterministically: a LayoutZip
// file that PyTorch 2.6's torch.export.load reads (parameters pickled as
// nn.Parameter, as it requires), or a PT2 archive that PyTorch 2.14 reads
// (raw records, one per storage, numbered as PyTorch numbers them, 64-byte
// aligned). Custom objects (torchbind) are kept as the bytes of their PT2
// records; the zip layout cannot hold them.
//
// Reading is safe on hostile input. Record sizes are checked against the
// file (and the deflate ratio) before anything is read, tensor metadata
// against the record's length before a tensor is made, nested torch.save
// files go through torchio's restricted unpickler, and every failure is an
// error naming the record and what was wrong.
package archive
