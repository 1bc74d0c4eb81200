"""The nine dimension checks of a trace. Each is a pure function ``(trace, environment, context) ->
DimensionVerdict``; ``CHECKS`` lists them in report order."""
