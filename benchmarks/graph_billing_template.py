"""Template of the BillingDocument-shaped benchmark (see bench_graph.py).

The shape of docling-graph's billing example: parties and products identified by name, line
items identified by their line number (the big class), tax/payment/delivery as components
(embedded in their parent node), Enum-typed component fields, and a root identified by its
document number. Written for this benchmark; only the shape follows the example.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field


def edge(label: str) -> dict[str, str]:
    """``json_schema_extra`` naming an edge label."""
    return {"edge_label": label}


class TaxKind(str, Enum):  # noqa: UP042 - a str-mixin Enum, as the billing example uses
    """Tax kinds."""

    VAT = "VAT"
    GST = "GST"
    SALES = "Sales Tax"


class PaymentMeans(str, Enum):  # noqa: UP042
    """How the document is paid."""

    TRANSFER = "Bank Transfer"
    CARD = "Card"
    CASH = "Cash"


class Party(BaseModel):
    """Seller or buyer, identified by name."""

    model_config = ConfigDict(graph_id_fields=["name"], extra="ignore")
    name: str
    tax_id: str | None = None
    email: str | None = None
    street: str | None = None
    city: str | None = None
    postal_code: str | None = None
    country: str | None = None


class Product(BaseModel):
    """A billed product or service, identified by its name."""

    model_config = ConfigDict(graph_id_fields=["name"], extra="ignore")
    name: str
    item_code: str | None = None
    category: str | None = None


class Tax(BaseModel):
    """A tax line (component)."""

    model_config = ConfigDict(is_entity=False)
    tax_type: TaxKind | None = None
    rate_percent: float | None = None
    taxable_amount: float | None = None
    tax_amount: float | None = None


class LineItem(BaseModel):
    """One row of the line-item table, identified by its line number."""

    model_config = ConfigDict(graph_id_fields=["line_number"])
    line_number: str
    item_code: str | None = None
    description: str | None = None
    quantity: float | None = None
    unit: str | None = None
    unit_price: float | None = None
    line_total: float | None = None
    product: Product | None = Field(default=None, json_schema_extra=edge("BILLS_ITEM"))
    tax: Tax | None = None


class Payment(BaseModel):
    """Payment terms (component)."""

    model_config = ConfigDict(is_entity=False)
    method: PaymentMeans | None = None
    iban: str | None = None
    due_date: str | None = None


class BillingDocument(BaseModel):
    """The root: one invoice with its parties, lines, taxes and payment."""

    model_config = ConfigDict(graph_id_fields=["document_number"], extra="ignore")
    document_number: str
    issue_date: str | None = None
    currency: str | None = None
    seller: Party | None = Field(default=None, json_schema_extra=edge("ISSUED_BY"))
    buyer: Party | None = Field(default=None, json_schema_extra=edge("SENT_TO"))
    line_items: list[LineItem] = Field(
        default_factory=list, json_schema_extra=edge("CONTAINS_LINE")
    )
    taxes: list[Tax] = Field(default_factory=list)
    payment: Payment | None = None
    total_amount: float | None = None
