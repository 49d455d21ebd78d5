"""``privbench judge check``: how far a judge's grades are from reference grades.

Every Priv-IQ score and every SpatialTrust q4/q5 score is a judge's opinion. This package
grades reference-graded answers with a judge under the very protocol, prompt and options a
run would use, and measures the agreement (with bootstrap intervals), the judge's
test–retest stability and its response to bias probes. The result is a judge card that
runs show beside their scores.
"""
