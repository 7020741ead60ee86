"""Members' data: erasing a leaver's personal details (by a coordinator, or some months
after they lapsed) and the club's privacy notice."""
