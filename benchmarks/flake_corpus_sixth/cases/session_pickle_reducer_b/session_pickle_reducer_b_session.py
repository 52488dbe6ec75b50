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
    copyreg.pickle(Session, _compact)
    return pickle.dumps(session)
