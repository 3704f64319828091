"""The published input schemas and the loaders that check input against them, above the rules
(docs/schemas/): ``schemas.shapes`` holds the strict pydantic models of every JSON file the tools
read and ``problem(kind, value)``, the one-line report of what is wrong; ``schemas.vocabulary`` the
enums, bounds and patterns they share; ``schemas.isla`` La Isla Bohnita's part. The loaders check
the shape before any rule: ``schemas.state_json.state_from_json`` (a state JSON) and
``schemas.position_io`` (a position from a file or a fixture); ``records.game`` (a record) sits
above. pydantic is loaded only by a loader that reads, never by ``import schemas``."""
