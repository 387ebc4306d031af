class Strings(Module):
  __parameters__ = []
  __buffers__ = []
  training : bool
  _is_full_backward_hook : Optional[bool]
  def forward(self: __torch__.Strings,
    s: str) -> Tuple[str, List[str], int]:
    t = "tab\there\nnew \'single\' \"double\" back\\slash \a\b\f\v\r \001\177"
    _0 = uninitialized(bool)
    parts = torch.split(s, ",")
    out = annotate(List[str], [])
    _1 = torch.len(parts)
    _2 = 0
    _3 = torch.gt(_1, 0)
    while _3:
      p = parts[_2]
      if torch.eq(p, ""):
        _4, _5 = True, True
      else:
        if torch.startswith(p, "#"):
          _6, _7 = True, False
        else:
          _8 = torch.add(torch.strip(p), "!")
          _9 = torch.append(out, _8)
          _6, _7 = False, _0
        _4, _5 = _6, _7
      if _4:
        _10 = _5
      else:
        _10 = True
      _11 = torch.add(_2, 1)
      _12 = torch.__and__(torch.lt(_11, _1), _10)
      _3, _2 = _12, _11
    if torch.lt(torch.len(out), 100):
      pass
    else:
      _13 = torch.format("too many parts: {}", torch.len(out))
      _14 = torch.add("AssertionError: ", _13)
      ops.prim.RaiseException(_14)
    if torch.gt(torch.len(out), 50):
      ops.prim.RaiseException("way too many\n", "builtins.ValueError")
    else:
      pass
    return (torch.add(t, s), out, 50)
