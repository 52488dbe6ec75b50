class Order:
    tags = []

    def __init__(self, sku, qty):
        self.sku = sku
        self.qty = qty

    def tag(self, label):
        if label not in self.tags:
            self.tags.append(label)
        return self
