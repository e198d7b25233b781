"""The hupf lab: netns topology, traffic generator, live view, scenario and summary (`make lab`)."""
