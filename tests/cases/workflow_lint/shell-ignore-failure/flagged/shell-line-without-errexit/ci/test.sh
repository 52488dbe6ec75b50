#!/bin/bash
pytest tests/unit
pytest tests/integration
