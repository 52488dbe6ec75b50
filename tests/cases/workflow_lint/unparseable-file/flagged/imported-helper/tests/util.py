def make(:
    try:
        return 1
