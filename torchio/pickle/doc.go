// Package pickle reads and writes the subset of Python's pickle format that
// PyTorch's torch.save uses, without executing anything.
//
// A Decoder runs the pickle virtual machine over an in-memory byte slice. It
// builds Python values as plain Go values (see Value) and never imports or
// calls Python code: every GLOBAL is handed to the caller's Find function,
// which returns a Go stand-in or refuses it, so the set of reachable
// "callables" is exactly the caller's allowlist, as in
// torch.load(weights_only=True). REDUCE and NEWOBJ call a stand-in only if
// it implements Callable (REDUCE of an argument that is not a tuple, as
// TorchScript writes enum values, only if it implements RawCallable);
// BUILD updates an object only if it implements
// Builder; BINPERSID hands the persistent id to the caller's PersistentLoad.
//
// The decoder is meant for hostile input: the memo, the stack and the mark
// nesting are bounded (see Limits), every length is checked against the
// remaining input before anything is allocated, every malformed or
// unsupported opcode is reported as an *Error carrying the byte offset and
// the opcode name, and no input makes it panic. Work and memory are linear in
// the size of the input.
//
// The opcodes understood are those of protocols 0-2 that carry binary data
// (PROTO, GLOBAL, BINPUT, LONG_BINPUT, BINGET, LONG_BINGET, MARK, POP,
// POP_MARK, DUP, EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE, TUPLE, TUPLE1-3,
// BININT, BININT1, BININT2, LONG1, LONG4, BINFLOAT, BINUNICODE, BINSTRING,
// SHORT_BINSTRING, NEWTRUE, NEWFALSE, NONE, REDUCE, NEWOBJ, BUILD, SETITEM,
// SETITEMS, APPEND, APPENDS, DICT, LIST, BINPERSID, STOP) and the protocol
// 3-4 additions that torch.save(pickle_protocol=4) emits (BINBYTES,
// SHORT_BINBYTES, SHORT_BINUNICODE, BINUNICODE8, FRAME, MEMOIZE,
// STACK_GLOBAL). Text-mode protocol 0 opcodes (INT, LONG, STRING, PUT, GET,
// PERSID, ...) are rejected.
//
// Encoder writes protocol 2 pickles one opcode at a time, which is all a
// writer of state dicts needs.
package pickle
