"""Web sessions; the shared cache stores only a compact form (user id), the job queue pickles full sessions."""
import copyreg
import io
import pickle


class Session:
    def __init__(self, user, cart=None):
        self.user = user
        self.cart = list(cart or [])

    def __eq__(self, other):
        return isinstance(other, Session) and (self.user, self.cart) == (other.user, other.cart)


def _compact(session):
    return Session, (session.user,)


def cache_dumps(session):
    buf = io.BytesIO()
    p = pickle.Pickler(buf)
    p.dispatch_table = copyreg.dispatch_table.copy()
    p.dispatch_table[Session] = _compact
    p.dump(session)
    return buf.getvalue()
