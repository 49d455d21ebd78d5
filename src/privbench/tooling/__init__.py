"""Dataset tooling that serves one suite each (generators, the capture builder), and the drawing kit they share."""
