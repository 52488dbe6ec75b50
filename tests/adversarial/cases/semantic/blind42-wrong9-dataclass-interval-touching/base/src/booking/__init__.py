from booking.slots import Slot, conflicts, overlaps

__all__ = ["Slot", "conflicts", "overlaps"]
