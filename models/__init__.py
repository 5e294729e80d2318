"""The domain: entities/ (ORM), rules/ (pure), services/ (the two joined); infra/ underneath."""
