"""Courses: grading classes (locally, on Gradescope), gradebooks, hand-ins, TA reports. Instructor only."""
