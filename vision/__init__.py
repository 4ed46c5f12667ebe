"""TableSight vision: frames in, detections and table views out (never imports server)."""
