"""Check a product's url as soon as it is new or changed, after the transaction commits.

The receivers compare with the stored row (not a value remembered at load time), so any save
path counts: the admin, a service, the shell. Saves whose update_fields leave out `url` (the
URL checker's own writes, index refreshes) are ignored. Bulk loaders wrap their work in
`url_validation_deferred()`: a changed url still loses its old result, but no request is fired
per row.
"""

from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from catalog.models import Product
from evi_site.background import enqueue_on_commit
from evi_site.thread_flags import ThreadFlag

_deferral = ThreadFlag()
url_validation_deferred = _deferral.activated


@receiver(pre_save, sender=Product, dispatch_uid="catalog.product_url_before_save")
def note_url_change(sender, instance: Product, raw=False, update_fields=None, **kwargs):
    if raw or (update_fields is not None and "url" not in update_fields):
        instance._url_changed = False
        return
    stored = Product.objects.filter(pk=instance.pk).values_list("url", flat=True).first() if instance.pk else None
    instance._url_changed = instance.url != (stored or "")


@receiver(post_save, sender=Product, dispatch_uid="catalog.product_url_saved")
def validate_changed_url(sender, instance: Product, created=False, raw=False, **kwargs):
    from catalog.services import product_url_check_reset
    from catalog.tasks import validate_product_url

    if raw or not getattr(instance, "_url_changed", False):
        return
    instance._url_changed = False
    if not created:
        product_url_check_reset(product=instance)
    if instance.url and not _deferral.active():
        enqueue_on_commit(validate_product_url, instance.pk)
