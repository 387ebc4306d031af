def forward(self,
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
        _8 = torch.append(out, torch.add(torch.strip(p), "!"))
        _6, _7 = False, _0
      _4, _5 = _6, _7
    if _4:
      _9 = _5
    else:
      _9 = True
    _10 = torch.add(_2, 1)
    _11 = torch.__and__(torch.lt(_10, _1), _9)
    _3, _2 = _11, _10
  if torch.lt(torch.len(out), 100):
    pass
  else:
    _12 = torch.format("too many parts: {}", torch.len(out))
    ops.prim.RaiseException(torch.add("AssertionError: ", _12))
  if torch.gt(torch.len(out), 50):
    ops.prim.RaiseException("way too many\n", "builtins.ValueError")
  else:
    pass
  return (torch.add(t, s), out, 50)
