class Order:

    def __init__(self, sku, qty):
        self.sku = sku
        self.qty = qty
        self.tags = []

    def tag(self, label):
        if label not in self.tags:
            self.tags.append(label)
        return self
